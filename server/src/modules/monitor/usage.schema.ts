import { z } from "zod";

const DAY_MS = 24 * 60 * 60 * 1000;
/** The longest period a usage query covers. */
export const MAX_USAGE_DAYS = 400;
export const USAGE_DIMENSIONS = ["story", "user", "library", "author", "source"] as const;

const period = {
  from: z.iso.datetime({ offset: true }).describe("the period's start (inclusive)"),
  to: z.iso.datetime({ offset: true }).describe("the period's end (exclusive)"),
};

function boundedPeriod<T extends { from: string; to: string }>(value: T, context: z.core.$RefinementCtx<T>): void {
  const span = Date.parse(value.to) - Date.parse(value.from);
  if (span <= 0) context.addIssue({ code: "custom", path: ["to"], message: "must be after from" });
  else if (span > MAX_USAGE_DAYS * DAY_MS) {
    context.addIssue({ code: "custom", path: ["to"], message: `the period is at most ${MAX_USAGE_DAYS} days` });
  }
}

export const usageFilter = z
  .object({
    ...period,
    by: z.enum(USAGE_DIMENSIONS).default("story").describe("what the rows are"),
    limit: z.coerce.number().int().min(1).max(500).default(100).describe("the most used rows, at most 500"),
  })
  .superRefine(boundedPeriod);
export type UsageFilter = z.infer<typeof usageFilter>;

export const unusedQuery = z
  .object({ ...period, limit: z.coerce.number().int().min(1).max(500).default(100) })
  .superRefine(boundedPeriod);
export type UnusedQuery = z.infer<typeof unusedQuery>;

export const searchMissQuery = z
  .object({ ...period, limit: z.coerce.number().int().min(1).max(500).default(100) })
  .superRefine(boundedPeriod);
export type SearchMissQuery = z.infer<typeof searchMissQuery>;

export const searchMissSchema = z
  .object({
    query: z.string().describe("the search text, trimmed, in lower case, spaces collapsed"),
    searches: z.number().int().describe("how many searches for it found nothing in the period"),
    lastAt: z.iso.datetime({ offset: true }).describe("the last of them"),
  })
  .meta({ id: "SearchMiss" });

export const usageRowSchema = z
  .object({
    key: z.string().describe("the story's, user's or library's id; the author's or source's name"),
    label: z.string().nullable().describe("the story's title, the user's or library's name"),
    views: z.number().int().describe("times the story was opened in the viewer (per viewer for users)"),
    downloads: z.number().int(),
    publishes: z.number().int(),
    shares: z.number().int().describe("share links made in the period with the story (per maker for users)"),
  })
  .meta({ id: "UsageRow" });
export type UsageRowView = z.infer<typeof usageRowSchema>;

export const unusedStorySchema = z
  .object({
    id: z.string(),
    libraryId: z.string(),
    title: z.string(),
    authors: z.array(z.string()),
    source: z.string().nullable(),
  })
  .meta({ id: "UnusedStory" });
