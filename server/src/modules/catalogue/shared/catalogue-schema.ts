import { z } from "zod";
import { pageQuery } from "../../../http/envelope.js";

/** The list query of every catalogue list: page, size, keyword, and an optional name filter. */
export const catalogueListQuery = pageQuery.extend({
  name: z.string().max(200).optional().describe("only entries whose name contains this (any case)"),
});
export type CatalogueListQuery = z.infer<typeof catalogueListQuery>;

export const idParams = z.object({ id: z.uuid() });

/** A delete that merges instead: the entry's stories are pointed at `mergeInto` first. */
export const mergeQuery = z.object({
  mergeInto: z
    .uuid()
    .optional()
    .describe("another entry of the same kind: stories using this one are pointed at it, then this one is deleted"),
});

/** What a delete answers: null, or what a merge did. */
export const deleteResult = z
  .object({ mergedInto: z.string(), stories: z.number().int().describe("stories pointed at the target") })
  .nullable();

export const entryName = z.string().trim().min(1, "must not be empty").max(100);

/** An optional text: blank becomes null. */
export function optionalText(max: number) {
  return z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((value) => (value ? value : null));
}

export const sortOrder = z.number().int().min(0).max(100_000).default(0);

export const stamps = {
  createTime: z.string(),
  updateTime: z.string(),
};

/** Lower-cased LIKE pattern with the wildcards of the user's text escaped. */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** Unpaged picker lists (/keyword/list, /source/all …): a keyword and a bound. */
export const pickQuery = z.object({
  keyword: z.string().max(200).optional(),
  size: z.coerce.number().int().min(1).max(1000).default(100).describe("at most this many entries"),
});
export type PickQuery = z.infer<typeof pickQuery>;
