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
  limits: (endpoint: string) => [...uploadKeys.all, "limits", endpoint] as const,
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

export interface UploadLimits {
  /** The largest file the server takes; null when it does not say. */
  maxSize: number | null;
  /** The PATCH size to send: Infinity (each file in one request, tus's default) unless a proxy in front limits bodies. */
  chunkSize: number;
  /**
   * Files up to this size go in their creation request (tus creation-with-upload: one request, which the server
   * stores whole without staging); larger ones are created first and then sent, resumable. 0: always the latter.
   */
  wholeFileSize: number;
}

const positive = (header: string | null) => {
  const value = Number(header);
  return Number.isFinite(value) && value > 0 ? value : null;
};

/**
 * The server's limits from the tus discovery answer (a public OPTIONS request of the protocol, outside the
 * API's schema): Tus-Max-Size, Dams-Upload-Chunk-Size when the operator set DAMS_UPLOAD_CHUNK_MIB for a proxy, and
 * Dams-Upload-Whole-Size, the largest file the server takes in one creation request.
 */
export async function fetchUploadLimits(endpoint: string = TUS_ENDPOINT): Promise<UploadLimits> {
  const response = await fetch(endpoint, { method: "OPTIONS", headers: { "Tus-Resumable": "1.0.0" } });
  return {
    maxSize: positive(response.headers.get("Tus-Max-Size")),
    chunkSize: positive(response.headers.get("Dams-Upload-Chunk-Size")) ?? Number.POSITIVE_INFINITY,
    wholeFileSize: positive(response.headers.get("Dams-Upload-Whole-Size")) ?? 0,
  };
}

/** The limits of a tus endpoint, asked once a page. */
export const uploadLimitsQuery = (endpoint: string = TUS_ENDPOINT) => ({
  queryKey: uploadKeys.limits(endpoint),
  queryFn: () => fetchUploadLimits(endpoint),
  staleTime: Number.POSITIVE_INFINITY,
});

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
