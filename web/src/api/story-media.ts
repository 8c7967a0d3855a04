import { API_BASE, sendRequest, unwrapResponse } from "./http";
import type { components } from "./schema";

export type StoryProcessing = components["schemas"]["StoryProcessing"];
export type StoryJob = StoryProcessing["jobs"][number];

const enc = encodeURIComponent;

async function get<T>(path: string): Promise<T> {
  const response = await sendRequest(new Request(new URL(`${API_BASE}/api/v1${path}`, window.location.origin)));
  return unwrapResponse<T>(response);
}

/** The story's processing state and its newest jobs with progress (any reader of the story). */
export function fetchProcessing(libraryId: string, storyId: string): Promise<StoryProcessing> {
  return get(`/stories/${enc(libraryId)}/${enc(storyId)}/processing`);
}

/** A fresh signed URL of one file, for a player whose URL has expired. */
export function fetchMediaUrl(
  libraryId: string,
  storyId: string,
  target: { rendition: string; versionNo: number },
): Promise<{ url: string; expiresAt: string }> {
  const query = new URLSearchParams({ rendition: target.rendition, versionNo: String(target.versionNo) });
  return get(`/stories/${enc(libraryId)}/${enc(storyId)}/media-url?${query}`);
}
