import { API_BASE, reportApiError, sendRequest, unwrapResponse } from "../../api/http";
import type { UploadType } from "./upload-logic";

/** `PUT /workflow-story-edit/{type}/{id}?libraryId=`: a story's metadata (properties merge). */
export async function editStory(
  type: UploadType,
  ref: { libraryId: string; storyId: string },
  body: Record<string, unknown>,
): Promise<unknown> {
  const path = `/api/v1/workflow-story-edit/${type}/${encodeURIComponent(ref.storyId)}?libraryId=${encodeURIComponent(ref.libraryId)}`;
  try {
    const response = await sendRequest(
      new Request(new URL(API_BASE + path, window.location.origin), {
        method: "PUT",
        body: JSON.stringify(body),
        headers: { "Content-Type": "application/json" },
      }),
    );
    return await unwrapResponse(response);
  } catch (error) {
    reportApiError(error);
    throw error;
  }
}
