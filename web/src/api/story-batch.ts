/** Batch edits of story metadata (docs/stories.md, "Editing many stories"): types and calls. */
import type { JsonBody } from "./bodies";
import { api, call } from "./client";
import type { components } from "./schema";
import type { StoryQuery } from "./stories";

export type BatchOperation = components["schemas"]["StoryBatchOperationInput"];
export type BatchPreview = components["schemas"]["StoryBatchPreview"];
export type StoryBatch = components["schemas"]["StoryBatch"];
export type StoryBatchItem = components["schemas"]["StoryBatchItem"];

/** The stories of a batch: the ids of a selection, or every story a grid's search matches (resolved by the server). */
export type BatchRequest = JsonBody<"/dams/api/v1/story-batch-edits", "post">;
export type BatchSearch = NonNullable<BatchRequest["search"]>;

/** A grid's list query as a batch's search: its filters, without paging and facets. */
export function batchSearchOf(query: StoryQuery): BatchSearch {
  const { page: _page, size: _size, facets: _facets, ...filters } = query as StoryQuery & { facets?: unknown };
  return filters as BatchSearch;
}

/** What each operation would change, and how many stories are refused (nothing is changed). */
export const previewBatchEdit = (body: BatchRequest): Promise<BatchPreview> =>
  call(api.POST("/dams/api/v1/story-batch-edits/preview", { body }));

/** Starts the batch: small ones answer finished, larger ones queued (follow with getBatchEdit). */
export const startBatchEdit = (body: BatchRequest): Promise<StoryBatch> =>
  call(api.POST("/dams/api/v1/story-batch-edits", { body }));

export const getBatchEdit = (batchId: string): Promise<StoryBatch> =>
  call(api.GET("/dams/api/v1/story-batch-edits/{batchId}", { params: { path: { batchId } } }));

/** The per-story report, in the selection's order; `outcome` filters it. */
export const batchEditItems = (
  batchId: string,
  query: { outcome?: StoryBatchItem["outcome"]; page?: number; size?: number },
): Promise<{ content: StoryBatchItem[]; totalElements: number }> =>
  call(
    api.GET("/dams/api/v1/story-batch-edits/{batchId}/items", {
      params: { path: { batchId }, query: { page: query.page ?? 0, size: query.size ?? 200, outcome: query.outcome } },
    }),
  );
