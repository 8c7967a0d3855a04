import { z } from "zod";
import { entryName, optionalText, sortOrder, stamps } from "../shared/catalogue-schema.js";
import type { EntryDefinition } from "./entry-definition.js";

export const themeSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    sortOrder: z.number().int(),
    ...stamps,
  })
  .meta({ id: "CatalogueTheme" });

export const themeInput = z.object({
  name: entryName,
  description: optionalText(500),
  sortOrder,
});

export type ThemeView = z.infer<typeof themeSchema>;
export type ThemeInput = z.infer<typeof themeInput>;

export const themeDefinition: EntryDefinition<ThemeView, ThemeInput> = {
  table: "themes",
  noun: "theme",
  usageKind: "theme",
  searchColumns: ["name", "description"],
  orderBy: [
    { column: "sort_order", direction: "asc" },
    { column: "name", direction: "asc" },
  ],
  uniqueColumns: ["name"],
  duplicateMessage: (input) => `a theme named "${input.name}" already exists`,
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
