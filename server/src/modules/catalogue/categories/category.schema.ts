import { z } from "zod";
import { entryName, optionalText, sortOrder, stamps } from "../shared/catalogue-schema.js";

export const categorySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    parentId: z.string().nullable().describe("null for a top-level category"),
    parentName: z.string().nullable(),
    description: z.string().nullable(),
    sortOrder: z.number().int(),
    childCount: z.number().int(),
    ...stamps,
  })
  .meta({ id: "CatalogueCategory" });

export const categoryInput = z.object({
  name: entryName,
  parentId: z
    .union([z.uuid(), z.literal("")])
    .nullish()
    .transform((value) => value || null),
  description: optionalText(500),
  sortOrder,
});

export type CategoryView = z.infer<typeof categorySchema>;
export type CategoryInput = z.infer<typeof categoryInput>;
