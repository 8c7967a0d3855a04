import { z } from "zod";
import { entryName, optionalText, sortOrder, stamps } from "../shared/catalogue-schema.js";
import type { UsageKind } from "../shared/catalogue-usage.js";
import type { EntryDefinition } from "./entry-definition.js";

const sortedEntryInput = z.object({
  name: entryName,
  description: optionalText(500),
  sortOrder,
});

export type SortedEntryInput = z.infer<typeof sortedEntryInput>;
export interface SortedEntryView {
  id: string;
  name: string;
  description: string | null;
  sortOrder: number;
  createTime: string;
  updateTime: string;
}

/**
 * A catalogue entry that is a name, a description and a sort order (themes,
 * sources): its schemas and its definition, differing only in table, noun and
 * OpenAPI component name.
 */
export function sortedEntry(options: { table: "themes" | "sources"; noun: UsageKind; metaId: string }) {
  const schema = z
    .object({
      id: z.string(),
      name: z.string(),
      description: z.string().nullable(),
      sortOrder: z.number().int(),
      ...stamps,
    })
    .meta({ id: options.metaId });
  const definition: EntryDefinition<SortedEntryView, SortedEntryInput> = {
    table: options.table,
    noun: options.noun,
    usageKind: options.noun,
    searchColumns: ["name", "description"],
    orderBy: [
      { column: "sort_order", direction: "asc" },
      { column: "name", direction: "asc" },
    ],
    uniqueColumns: ["name"],
    duplicateMessage: (input) => `a ${options.noun} named "${input.name}" already exists`,
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
  return { schema, input: sortedEntryInput, definition };
}
