import { z } from "zod";
import { pageQuery } from "../../http/envelope.js";
import { storyListQuery } from "../search/search.schema.js";
import { IPTC_TEXT_PROPERTIES } from "../stories/story-types.js";

/** The most stories one batch edit takes (a grid's selection, or every story matching a search). */
export const BATCH_MAX_STORIES = 5000;
/** Batches of at most this many stories run inside the request (the same code as the job). */
export const BATCH_INLINE_MAX = 20;

/** Story columns a batch sets as text. */
export const TEXT_FIELDS = ["title", "caption", "source", "theme", "category"] as const;
/** The IPTC texts kept in `properties` (the stories module's list). */
export const IPTC_FIELDS = IPTC_TEXT_PROPERTIES;
export const LIST_FIELDS = ["keywords", "tags", "authors"] as const;
export type TextField = (typeof TEXT_FIELDS)[number];
export type IptcField = (typeof IPTC_FIELDS)[number];
export type ListField = (typeof LIST_FIELDS)[number];

const names = z.array(z.string().trim().min(1).max(200)).min(1).max(100);
const propertyName = z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, "a property key");

export const batchOperation = z
  .discriminatedUnion("op", [
    z
      .object({
        op: z.literal("set"),
        field: z.enum([...TEXT_FIELDS, ...IPTC_FIELDS]),
        value: z.string().max(20_000).describe("an empty text clears the field"),
      })
      .describe("set a field: title, caption, source, theme, category or an IPTC text (kept in properties)"),
    z
      .object({
        op: z.literal("setProperty"),
        name: propertyName,
        value: z
          .union([z.string().max(2000), z.number(), z.boolean(), z.array(z.string().max(200)).max(100)])
          .nullable()
          .describe("null removes the property"),
      })
      .describe("set a custom property of /properties/list (checked against its kind and code list)"),
    z.object({ op: z.literal("add"), field: z.enum(LIST_FIELDS), values: names }).describe("append to a list"),
    z.object({ op: z.literal("remove"), field: z.enum(LIST_FIELDS), values: names }).describe("remove from a list"),
    z
      .object({
        op: z.literal("replace"),
        field: z.enum(["caption", "title"]).default("caption"),
        find: z.string().min(1).max(500),
        replace: z.string().max(2000),
        matchCase: z.boolean().default(true),
      })
      .describe("find and replace literal text in captions (every occurrence)"),
    z
      .object({ op: z.literal("template"), templateId: z.uuid() })
      .describe("apply a metadata template: texts set, keywords, tags and authors added"),
  ])
  .meta({ id: "StoryBatchOperation" });
export type BatchOperation = z.infer<typeof batchOperation>;

/** "All stories matching a search": the filters of `GET /stories`, without paging. */
export const batchSearch = storyListQuery
  .omit({ page: true, size: true, facets: true })
  .describe(
    `the grid's search: the query parameters of GET /stories (fulltext, libraryId, folderId, types, tag…); the stories it matches when the batch starts, at most ${BATCH_MAX_STORIES}`,
  );
export type BatchSearch = z.infer<typeof batchSearch>;

export const batchBody = z
  .object({
    storyIds: z
      .array(z.uuid())
      .min(1)
      .max(BATCH_MAX_STORIES)
      .transform((ids) => [...new Set(ids.map((id) => id.toLowerCase()))])
      .optional()
      .describe(`the stories, up to ${BATCH_MAX_STORIES}; a story of a library the caller cannot write is refused`),
    search: batchSearch.optional(),
    operations: z.array(batchOperation).min(1).max(20).describe("applied in order to each story"),
  })
  .superRefine((body, context) => {
    if ((body.storyIds === undefined) === (body.search === undefined))
      context.addIssue({ code: "custom", path: ["storyIds"], message: "give either storyIds or search (one of them)" });
  });
export type BatchInput = z.infer<typeof batchBody>;

const reasonCount = z.object({ reason: z.string(), count: z.number().int() });

export const batchPreviewSchema = z
  .object({
    total: z.number().int().describe("stories in the selection"),
    changed: z.number().int().describe("stories the operations together would change"),
    unchanged: z.number().int().describe("stories they would leave as they are"),
    refused: z.number().int().describe("stories the caller may not change (or not found)"),
    refusedReasons: z.array(reasonCount),
    operations: z
      .array(z.object({ index: z.number().int(), touches: z.number().int() }))
      .describe("per operation, in order: the stories it alone would change"),
  })
  .meta({ id: "StoryBatchPreview" });
export type BatchPreview = z.infer<typeof batchPreviewSchema>;

export const batchSchema = z
  .object({
    id: z.string(),
    state: z.enum(["queued", "running", "succeeded", "failed"]),
    total: z.number().int(),
    done: z.number().int(),
    changed: z.number().int(),
    unchanged: z.number().int(),
    refused: z.number().int(),
    failed: z.number().int(),
    progress: z.number().int().min(0).max(100),
    operations: z.array(batchOperation),
    error: z.string().nullable(),
    jobId: z.string().nullable().describe("the durable job (null: ran inside the request)"),
    createdAt: z.string(),
    finishedAt: z.string().nullable(),
  })
  .meta({ id: "StoryBatch" });
export type BatchView = z.infer<typeof batchSchema>;

export const batchItemSchema = z
  .object({
    position: z.number().int(),
    storyId: z.string(),
    libraryId: z.string().nullable(),
    title: z.string().nullable(),
    outcome: z.enum(["pending", "changed", "unchanged", "refused", "failed"]),
    reason: z.string().nullable().describe("refused or failed: the error code (property_not_editable, not_found…)"),
    message: z.string().nullable(),
    fields: z.array(z.string()).describe("changed: the fields changed"),
  })
  .meta({ id: "StoryBatchItem" });
export type BatchItemView = z.infer<typeof batchItemSchema>;

export const batchIdParams = z.object({ batchId: z.uuid() });
export const batchItemsQuery = pageQuery.extend({
  outcome: z.enum(["pending", "changed", "unchanged", "refused", "failed"]).optional(),
});
