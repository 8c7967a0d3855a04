import { z } from "zod";
import { pageQuery } from "../../http/envelope.js";
import { libraryIdSchema } from "../libraries/libraries.schema.js";

const text = (max: number) => z.string().max(max).optional();
const list = z.array(z.string().trim().min(1).max(100)).max(100).optional();

/**
 * A template's values: the upload form's story fields and custom properties
 * (IPTC-style values such as credit, copyright notice, usage terms or city
 * are custom properties of the library). Text may hold the variables
 * `{date}` (YYYY-MM-DD), `{user}` (the user's name) and `{library}` (the
 * library's name), replaced once when the template is applied.
 */
export const templateValues = z
  .object({
    title: text(500),
    caption: text(10_000),
    keywords: list,
    tags: list,
    authors: list,
    source: text(200),
    theme: text(200),
    category: text(200),
    properties: z
      .record(z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, "a property key"), z.string().max(2000))
      .optional()
      .describe("custom properties by key: credit, copyright, usage terms, city…"),
  })
  .meta({ id: "MetadataTemplateValues" });
export type TemplateValues = z.infer<typeof templateValues>;

export const metadataTemplateBody = z.object({
  name: z.string().trim().min(1).max(100),
  description: z.string().max(500).nullable().optional(),
  values: templateValues,
});
export type MetadataTemplateInput = z.infer<typeof metadataTemplateBody>;

export const metadataTemplateSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    values: templateValues,
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "MetadataTemplate" });
export type MetadataTemplateView = z.infer<typeof metadataTemplateSchema>;

export const templateIdParams = z.object({ templateId: z.uuid() });
export const templateApplyParams = templateIdParams.extend({ libraryId: libraryIdSchema });
export const templateListQuery = pageQuery;
