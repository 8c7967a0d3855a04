import { z } from "zod";
import { ORIENTATIONS, SEARCH_SORTS, SEARCH_WINDOW } from "./search.repository.js";

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

export const totalCappedSchema = z
  .boolean()
  .optional()
  .describe(
    `true when more stories match a full-text search than it looks at (the newest ${SEARCH_WINDOW}): totalElements, the pages and the facets cover those`,
  );
