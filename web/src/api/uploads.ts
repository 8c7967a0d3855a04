/**
 * Uploads: the tus endpoint (docs/storage.md), whose protocol Uppy's tus
 * plugin speaks itself (the page asks only its discovery for the size
 * limit), and the commit of the drafts uploads make.
 */
import { api, call } from "./client";
import type { paths } from "./schema";
import type { UploadType } from "./stories";

export const TUS_ENDPOINT = "/dams/api/v1/uploads";

export const uploadKeys = {
  all: ["uploads"] as const,
  maxSize: () => [...uploadKeys.all, "max-size"] as const,
  createForm: (type: string) => [...uploadKeys.all, "create-form", type] as const,
};

/**
 * Where a new story of the type goes by default (GET /workflow-story-create/{type}):
 * the user's default library and folder, a video to 素材库 (material) as the spec says.
 */
export function fetchCreateForm(type: UploadType): Promise<{ libraryId: string; folderId: string | null }> {
  const path = `/dams/api/v1/workflow-story-create/${type}` as const;
  return call(api.GET(path, {}));
}

/**
 * The server's size limit from the tus discovery answer (a public OPTIONS
 * request of the protocol, outside the API's schema); null when not given.
 */
export async function fetchTusMaxSize(): Promise<number | null> {
  const response = await fetch(TUS_ENDPOINT, { method: "OPTIONS", headers: { "Tus-Resumable": "1.0.0" } });
  const value = Number(response.headers.get("Tus-Max-Size"));
  return Number.isFinite(value) && value > 0 ? value : null;
}

export type CommitBody = NonNullable<
  paths["/dams/api/v1/workflow-story-create/photo/commit"]["post"]["requestBody"]
>["content"]["application/json"];

/**
 * Drafts → committed (the half products' "commit"). `metadata.properties` go
 * to every story, `properties` (by story id) to one story each, over the
 * batch's; the server checks them against /properties/list.
 */
export function commitStories(
  type: UploadType,
  libraryId: string,
  storyIds: string[],
  extra: Pick<CommitBody, "metadata" | "properties"> = {},
): Promise<unknown> {
  const path = `/dams/api/v1/workflow-story-create/${type}/commit` as const;
  return call(api.POST(path, { body: { libraryId, storyIds, ...extra } }));
}
