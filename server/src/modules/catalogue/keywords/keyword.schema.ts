import { z } from "zod";
import type { EntryDefinition } from "../entries/entry-definition.js";
import { entryName, stamps } from "../shared/catalogue-schema.js";

export const keywordSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    useCount: z.number().int().describe("how many times the keyword was applied"),
    ...stamps,
  })
  .meta({ id: "CatalogueKeyword" });

export const keywordInput = z.object({ name: entryName });

export type KeywordView = z.infer<typeof keywordSchema>;
export type KeywordInput = z.infer<typeof keywordInput>;

export const keywordDefinition: EntryDefinition<KeywordView, KeywordInput> = {
  table: "keywords",
  noun: "keyword",
  usageKind: "keyword",
  searchColumns: ["name"],
  orderBy: [{ column: "name", direction: "asc" }],
  uniqueColumns: ["name"],
  duplicateMessage: (input) => `the keyword "${input.name}" already exists`,
  toView: (row) => ({
    id: row.id,
    name: row.name,
    useCount: Number(row.use_count ?? 0),
    createTime: row.created_at,
    updateTime: row.updated_at,
  }),
  toColumns: () => ({}),
};

export const historyEntrySchema = z
  .object({
    id: z.string(),
    keyword: z.string(),
    usedAt: z.string(),
  })
  .meta({ id: "KeywordHistoryEntry" });

export type HistoryEntryView = z.infer<typeof historyEntrySchema>;

export const recordHistoryBody = z.object({
  keywords: z
    .array(z.string().trim().min(1, "must not be empty").max(100))
    .min(1)
    .max(50)
    .describe("the keywords the caller just applied, most important first"),
});
