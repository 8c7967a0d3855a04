import { z } from "zod";
import { STORY_STATUSES, STORY_TYPES } from "../../db/schema.js";
import { pageQuery } from "../../http/envelope.js";
import { libraryIdSchema } from "../libraries/libraries.schema.js";

export const SEARCH_SORTS = ["relevance", "date", "captured", "updated", "title", "size"] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];
export const ORIENTATIONS = ["landscape", "portrait", "square"] as const;
export type Orientation = (typeof ORIENTATIONS)[number];

/**
 * Matching stories a full-text search looks at: the newest this many that
 * pass the filters (SearchIndex.recency). The total, the facets and every
 * sort work within them, so the cost of a search is bounded by the window,
 * not by the number of matches; a larger result reports `capped`.
 */
export const SEARCH_WINDOW = 2000;

/**
 * Stories a list without full text counts at most for its total: above it the
 * total is an estimate (the planner's on PostgreSQL, sqlite_stat1's on
 * SQLite), flagged `estimated`, so the count's cost is bounded by the cap, not
 * by the library (docs/scale.md, section 1). A page beyond the cap is counted
 * exactly: its OFFSET reads that far anyway.
 */
export const LIST_COUNT_CAP = 10_000;

/** Splits `a,b` and repeated parameters; upper case accepted (the front end sends types=VIDEO). */
function listOf<T extends readonly [string, ...string[]]>(values: T) {
  return z
    .preprocess(
      (value) =>
        value === undefined
          ? undefined
          : (Array.isArray(value) ? value : [value])
              .flatMap((item) => String(item).split(","))
              .map((item) => item.trim().toLowerCase())
              .filter(Boolean),
      z.array(z.enum(values)),
    )
    .optional();
}

const booleanQuery = z
  .enum(["true", "false", "1", "0"])
  .transform((value) => value === "true" || value === "1")
  .optional();

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** A date or date-time; a bare date as the start of that day (UTC), or of the next day for an upper bound. */
function dateBound(upper: boolean) {
  return z
    .string()
    .max(40)
    .refine((value) => !Number.isNaN(Date.parse(value)), "must be an ISO-8601 date or date-time")
    .transform((value) => {
      const date = new Date(DATE_ONLY.test(value) ? `${value}T00:00:00.000Z` : value);
      if (upper && DATE_ONLY.test(value)) date.setUTCDate(date.getUTCDate() + 1);
      return date.toISOString();
    })
    .optional();
}

/** One value, or several comma-separated (any of them matches, as a facet's selected values do). */
const terms = z
  .string()
  .max(2000)
  .transform((value) =>
    value
      .split(",")
      .map((item) => item.trim())
      .filter((item) => item.length > 0 && item.length <= 200),
  )
  .refine((values) => values.length <= 50, "at most 50 values")
  .optional();

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** Full-text search, filters and sorts of `GET /stories` (see docs/search.md). */
export const searchListQuery = z.object({
  fulltext: z
    .string()
    .max(500)
    .optional()
    .describe(
      'full-text query: words (all must match), "quoted phrases", prefix*; Chinese of any length matches as a substring (台, 台风, 发布会)',
    ),
  capturedFrom: dateBound(false).describe("captured at or after (ISO date or date-time)"),
  capturedTo: dateBound(true).describe("captured before; a bare date includes that day"),
  uploadedFrom: dateBound(false).describe("uploaded (created) at or after"),
  uploadedTo: dateBound(true).describe("uploaded before; a bare date includes that day"),
  author: terms.describe("one of the story's authors, exactly; several comma-separated: any of them"),
  source: terms.describe("the story's source, exactly; several comma-separated: any of them"),
  tag: terms.describe("one of the story's tags, exactly; several comma-separated: any of them"),
  keywords: terms.describe(
    "one of the story's keywords, exactly; several comma-separated: any of them (`keyword` is a substring of title or caption)",
  ),
  month: z
    .string()
    .max(400)
    .transform((value) => value.split(",").map((item) => item.trim()))
    .refine((values) => values.every((item) => MONTH.test(item)), "months as YYYY-MM, comma-separated")
    .optional()
    .describe("YYYY-MM of the captured date, else the upload date (the month facet); several: any of them"),
  orientation: z.enum(ORIENTATIONS).optional().describe("from width and height"),
  hasGps: booleanQuery,
  sort: z
    .enum(SEARCH_SORTS)
    .optional()
    .describe(
      "relevance (default with fulltext; then newest upload), date (uploaded), captured, updated (default without fulltext), title, size",
    ),
  order: z.enum(["asc", "desc"]).optional().describe("default: best/newest/largest first, titles A→Z"),
  facets: booleanQuery.describe("counts beside the page; default: true when fulltext is given"),
});

/** The query of `GET /stories`: paging, the list's historic filters and the search's (the one definition of it). */
export const storyListQuery = pageQuery.extend({
  libraryId: libraryIdSchema.optional().describe("one library; absent: every library the caller can read"),
  folderId: z.uuid().optional().describe("stories directly in this folder"),
  types: listOf(STORY_TYPES).describe("comma-separated: photo,video,audio,composite (any case)"),
  status: listOf(STORY_STATUSES).describe("comma-separated: draft,committed,published"),
  halfProduct: booleanQuery,
  ...searchListQuery.shape,
});
export type StoryListQuery = z.output<typeof storyListQuery>;

/** `GET /stories/mystories/{x}`: the same without the library (a path parameter) and the facets. */
export const myStoriesQuery = storyListQuery.omit({ libraryId: true, facets: true });

/**
 * What the search repository filters by: the list query's filters (`keyword`
 * is a substring of title or caption, `keywords` the story's keywords), over
 * the libraries the caller may read.
 */
export type SearchFilter = Omit<StoryListQuery, "page" | "size" | "sort" | "order" | "facets" | "libraryId"> & {
  libraryIds: string[];
  /** Drafts are listed only for the user who created them. */
  viewerId: string;
  /** Only stories this user created (their own uploads). */
  createdBy?: string;
  /** Only stories filed in no folder (a library's top level, as WebDAV shows it). */
  unfiled?: boolean;
  /**
   * The story properties the searcher may not see (field-level access): full text does not match
   * their values. Absent: no restricted property is searched (search_restricted_properties).
   */
  hiddenProperties?: readonly string[];
};

export type SearchPage = Pick<StoryListQuery, "page" | "size" | "sort" | "order">;

const facetValues = z.array(z.object({ value: z.string(), count: z.number().int() }));

export const facetsSchema = z
  .object({
    type: facetValues.describe("photo, video, audio, composite"),
    library: facetValues.describe("library ids (only readable ones)"),
    month: facetValues.describe("YYYY-MM of the captured date, else the upload date"),
    author: facetValues,
    source: facetValues,
    tag: facetValues,
  })
  .describe("counts over the whole filtered result, most frequent first, at most 50 values each")
  .meta({ id: "SearchFacets" });

export const totalCappedSchema = z
  .boolean()
  .optional()
  .describe(
    `true when more stories match a full-text search than it looks at (the newest ${SEARCH_WINDOW}): totalElements, the pages and the facets cover those`,
  );

export const totalEstimatedSchema = z
  .boolean()
  .optional()
  .describe(
    `true when more than ${LIST_COUNT_CAP} stories match a list without full text: totalElements is then an estimate (above ${LIST_COUNT_CAP}), not a count. The pages are exact; a page that ends beyond the first ${LIST_COUNT_CAP} stories answers the exact total`,
  );
