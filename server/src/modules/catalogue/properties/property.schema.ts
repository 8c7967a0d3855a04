import { z } from "zod";
import { pageQuery } from "../../../http/envelope.js";
import { optionalText, sortOrder, stamps } from "../shared/catalogue-schema.js";

export const STORY_TYPES = ["photo", "video", "audio"] as const;
export type StoryType = (typeof STORY_TYPES)[number];

/** The input kinds of the upload form's fields. select and multiselect take their options from a code list. */
export const PROPERTY_KINDS = ["text", "textarea", "number", "date", "select", "multiselect", "switch"] as const;
export type PropertyKind = (typeof PROPERTY_KINDS)[number];

export function needsCodelist(kind: PropertyKind): boolean {
  return kind === "select" || kind === "multiselect";
}

const storyType = z.enum(STORY_TYPES);
const queryBoolean = z
  .enum(["true", "false", "1", "0"])
  .transform((value) => value === "true" || value === "1")
  .optional();

export const propertyOptionSchema = z.object({ value: z.string(), label: z.string() });

export const storyPropertySchema = z
  .object({
    id: z.string(),
    storyType,
    libraryId: z.string().nullable().describe("null: the property applies in every library"),
    name: z.string().describe("the key of the value in a story's properties"),
    label: z.string(),
    kind: z.enum(PROPERTY_KINDS),
    required: z.boolean(),
    defaultValue: z
      .string()
      .nullable()
      .describe("as text: a number, YYYY-MM-DD, true/false, an option value, or option values joined by commas"),
    codelistId: z.string().nullable(),
    codelistName: z.string().nullable(),
    options: z.array(propertyOptionSchema).describe("the code list's options (select and multiselect)"),
    sortOrder: z.number().int(),
    isquick: z.boolean().describe("shown in the quick form of the upload page"),
    ...stamps,
  })
  .meta({ id: "StoryProperty" });

/** A property as /properties/list gives it to a form: with whether the caller may edit it. */
export const formPropertySchema = storyPropertySchema
  .extend({ editable: z.boolean().describe("whether the caller's role may edit it (field-level access)") })
  .meta({ id: "StoryFormProperty" });

export const storyPropertyInput = z.object({
  storyType,
  libraryId: z
    .string()
    .trim()
    .max(100)
    .nullish()
    .transform((value) => value || null),
  name: z
    .string()
    .trim()
    .regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, "must start with a letter and hold only letters, digits and _"),
  label: z.string().trim().min(1, "must not be empty").max(100),
  kind: z.enum(PROPERTY_KINDS),
  required: z.boolean().default(false),
  defaultValue: optionalText(1000),
  codelistId: z
    .union([z.uuid(), z.literal("")])
    .nullish()
    .transform((value) => value || null),
  sortOrder,
  isquick: z.boolean().default(false),
});

/** /properties/list: what the upload form needs, unpaged. */
export const propertyLookupQuery = z.object({
  storytype: storyType.optional(),
  libraryId: z
    .string()
    .max(100)
    .optional()
    .describe("the library's own properties and those of every library (a library's own wins on a shared name)"),
  isquick: queryBoolean.describe("true: only the quick form's properties; false: only the others"),
});

/** The back area's paged list. */
export const propertyListQuery = pageQuery.extend({
  storytype: storyType.optional(),
  libraryId: z
    .string()
    .max(100)
    .optional()
    .describe("only this library's own properties; `*` for those of every library"),
  isquick: queryBoolean,
});

export type StoryPropertyView = z.infer<typeof storyPropertySchema>;
export type StoryPropertyInput = z.infer<typeof storyPropertyInput>;
export type PropertyLookupQuery = z.infer<typeof propertyLookupQuery>;
export type PropertyListQuery = z.infer<typeof propertyListQuery>;
