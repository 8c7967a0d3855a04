import { z } from "zod";
import { entryName, optionalText, sortOrder, stamps } from "../shared/catalogue-schema.js";
import type { EntryDefinition } from "./entry-definition.js";

export const sourceSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    sortOrder: z.number().int(),
    ...stamps,
  })
  .meta({ id: "CatalogueSource" });

export const sourceInput = z.object({
  name: entryName,
  description: optionalText(500),
  sortOrder,
});

export type SourceView = z.infer<typeof sourceSchema>;
export type SourceInput = z.infer<typeof sourceInput>;

export const sourceDefinition: EntryDefinition<SourceView, SourceInput> = {
  table: "sources",
  noun: "source",
  usageKind: "source",
  searchColumns: ["name", "description"],
  orderBy: [
    { column: "sort_order", direction: "asc" },
    { column: "name", direction: "asc" },
  ],
  uniqueColumns: ["name"],
  duplicateMessage: (input) => `a source named "${input.name}" already exists`,
  toView: (row) => ({
    id: row.id,
    name: row.name,
    description: (row.description as string | null) ?? null,
    sortOrder: Number(row.sort_order),
    createTime: row.created_at,
    updateTime: row.updated_at,
  }),
  toColumns: (input) => ({ description: input.description, sort_order: input.sortOrder }),
};

/** An option of the source picker (/source/option). The value is the name, which stories record. */
export const sourceOptionSchema = z
  .object({ id: z.string(), label: z.string(), value: z.string() })
  .meta({ id: "CatalogueSourceOption" });
