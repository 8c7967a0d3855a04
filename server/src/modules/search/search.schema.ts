import { z } from "zod";
import { ORIENTATIONS, SEARCH_SORTS } from "./search.repository.js";

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

const term = z.string().trim().min(1).max(200).optional();

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
  author: term.describe("one of the story's authors, exactly"),
  source: term.describe("the story's source, exactly"),
  tag: term.describe("one of the story's tags, exactly"),
  keywords: term.describe("one of the story's keywords, exactly (`keyword` is a substring of title or caption)"),
  orientation: z.enum(ORIENTATIONS).optional().describe("from width and height"),
  hasGps: z
    .enum(["true", "false", "1", "0"])
    .transform((value) => value === "true" || value === "1")
    .optional(),
  sort: z
    .enum(SEARCH_SORTS)
    .optional()
    .describe(
      "relevance (default with fulltext; then newest upload), date (uploaded), captured, updated (default without fulltext), title, size",
    ),
  order: z.enum(["asc", "desc"]).optional().describe("default: best/newest/largest first, titles A→Z"),
  facets: z
    .enum(["true", "false", "1", "0"])
    .transform((value) => value === "true" || value === "1")
    .optional()
    .describe("counts beside the page; default: true when fulltext is given"),
});

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
