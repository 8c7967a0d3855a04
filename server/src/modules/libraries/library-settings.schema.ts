import { z } from "zod";
import { STORY_TYPES } from "../../db/schema.js";
import { pageQuery } from "../../http/envelope.js";
import { LIBRARY_KINDS, libraryIdSchema } from "./libraries.schema.js";

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((value) => (value ? value : null));

const settingsFields = {
  name: z.string().trim().min(1, "must not be empty").max(100),
  kind: z.enum(LIBRARY_KINDS).default("department").describe("what the library is for"),
  description: optionalText(500),
  sort: z.number().int().min(0).max(100_000).default(0),
  defaultFolderId: z
    .uuid()
    .nullish()
    .transform((value) => value ?? null)
    .describe("where new stories go unless one is chosen"),
  storyTypes: z
    .array(z.enum(STORY_TYPES))
    .min(1)
    .max(STORY_TYPES.length)
    .nullish()
    .transform((value) => (value ? [...new Set(value)] : null))
    .describe("the story types the library accepts; null or absent: every type"),
  templateId: optionalText(200).describe("the default metadata template's id"),
  bucketId: optionalText(200).describe("the storage target of its new originals; null: the default storage"),
};

export const createLibraryBody = z.object({
  id: libraryIdSchema.describe("the library's code, also its id in paths (`/frontend/{library}`): never changes"),
  ...settingsFields,
});
export type CreateLibraryInput = z.infer<typeof createLibraryBody>;

export const updateLibraryBody = z.object(settingsFields);
export type UpdateLibraryInput = z.infer<typeof updateLibraryBody>;

export const librarySettingsSchema = z
  .object({
    id: z.string().describe("the library's code"),
    name: z.string(),
    kind: z.enum(LIBRARY_KINDS),
    description: z.string().nullable(),
    sort: z.number().int(),
    defaultFolderId: z.string().nullable(),
    defaultFolderName: z.string().nullable(),
    storyTypes: z.array(z.enum(STORY_TYPES)).nullable(),
    templateId: z.string().nullable(),
    bucketId: z.string().nullable(),
    archivedAt: z.string().nullable().describe("when it was archived (it takes no new stories), or null"),
    storyCount: z.number().int().describe("stories in it, drafts and trash included"),
    builtIn: z.boolean().describe("a library the system needs (product, material): never archived or deleted"),
    createTime: z.string(),
    updateTime: z.string().nullable(),
  })
  .meta({ id: "LibrarySettings" });

export const librarySettingsQuery = pageQuery.extend({
  archived: z
    .enum(["true", "false"])
    .optional()
    .transform((value) => (value === undefined ? undefined : value === "true"))
    .describe("only archived (true) or active (false) libraries"),
});
export type LibrarySettingsQuery = z.infer<typeof librarySettingsQuery>;

export const librarySettingsParams = z.object({ libraryId: libraryIdSchema });
