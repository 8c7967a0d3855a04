import { z } from "zod";
import { entryName, optionalText, stamps } from "../shared/catalogue-schema.js";
import type { EntryDefinition } from "./entry-definition.js";

export const tagSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    color: z.string().nullable().describe("a CSS colour for the tag chip"),
    description: z.string().nullable(),
    ...stamps,
  })
  .meta({ id: "CatalogueTag" });

export const tagInput = z.object({
  name: entryName,
  color: z
    .string()
    .trim()
    .regex(/^(#[0-9a-fA-F]{3,8}|[a-z]{3,20})?$/, "must be #rgb, #rrggbb or a colour name")
    .nullish()
    .transform((value) => value || null),
  description: optionalText(500),
});

export type TagView = z.infer<typeof tagSchema>;
export type TagInput = z.infer<typeof tagInput>;

export const tagDefinition: EntryDefinition<TagView, TagInput> = {
  table: "tags",
  noun: "tag",
  usageKind: "tag",
  searchColumns: ["name", "description"],
  orderBy: [{ column: "name", direction: "asc" }],
  uniqueColumns: ["name"],
  duplicateMessage: (input) => `a tag named "${input.name}" already exists`,
  toView: (row) => ({
    id: row.id,
    name: row.name,
    color: (row.color as string | null) ?? null,
    description: (row.description as string | null) ?? null,
    createTime: row.created_at,
    updateTime: row.updated_at,
  }),
  toColumns: (input) => ({ color: input.color, description: input.description }),
};
