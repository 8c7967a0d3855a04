import { z } from "zod";
import { pageQuery } from "../../http/envelope.js";
import { libraryIdSchema } from "../libraries/libraries.schema.js";
import { storyMetadataSchema, storySchema } from "./stories.schema.js";

const memberRef = z.object({ libraryId: libraryIdSchema, storyId: z.uuid() });

export const createFormQuery = z.object({
  libraryId: libraryIdSchema.optional().describe("default: the caller's default library (video: material)"),
  folderId: z.uuid().optional(),
});

export const createFormSchema = z
  .object({
    type: z.string(),
    libraryId: z.string(),
    libraryName: z.string(),
    folderId: z.string().nullable(),
    folderPath: z.array(z.object({ id: z.string(), name: z.string() })),
    writable: z.boolean().describe("whether the caller may create stories there"),
    uploadPath: z.string().describe("where files go: the tus endpoint"),
  })
  .meta({ id: "StoryCreateForm" });

export const createStoryBody = storyMetadataSchema.extend({
  libraryId: libraryIdSchema,
  folderId: z.uuid().nullable().optional(),
  members: z.array(memberRef).max(500).optional().describe("composite stories only: the member stories, in order"),
});

export const commitBody = z.object({
  libraryId: libraryIdSchema,
  storyIds: z.array(z.uuid()).min(1).max(500),
  metadata: storyMetadataSchema.optional().describe("applied to every story before the commit"),
  properties: z
    .record(z.uuid(), z.record(z.string().max(100), z.unknown()))
    .optional()
    .describe(
      "per story id: custom properties merged over metadata.properties for that story; a commit carrying properties is checked against /properties/list (kinds, code-list values, required ones)",
    ),
});

export const newVersionBody = z.object({
  libraryId: libraryIdSchema,
  storyId: z.uuid().describe("the story that gets a new version"),
  fromLibraryId: libraryIdSchema,
  fromStoryId: z.uuid().describe("a draft carrying the new file (uploaded like any other); it is merged and gone"),
  note: z.string().max(2000).nullable().optional(),
});

export const editParams = z.object({ id: z.uuid() });
export const editQuery = z.object({ libraryId: libraryIdSchema });
export const editBody = storyMetadataSchema.extend({
  properties: storyMetadataSchema.shape.properties.describe(
    "custom properties, merged into the story's; a null value removes the key; `lastVersion` is the server's. Checked against /properties/list for the story's type and library: 400 `invalid_property` naming `properties.<name>` for a value of the wrong kind or not in its code list, and, for a committed or published story, for a required one left empty",
  ),
  folderId: z.uuid().nullable().optional().describe("move within the library; null: the root"),
  members: z.array(memberRef).max(500).optional(),
  coverFrom: z
    .object({
      storyId: z.uuid().optional().describe("this story (default) or, for a composite, one of its members"),
      role: z.string().regex(/^[a-z][a-z0-9-]{0,31}$/, "must be a file role"),
      versionNo: z.number().int().min(1).optional(),
    })
    .nullable()
    .optional()
    .describe("an image file (thumbnail, preview, poster…) to show as the cover; null removes the cover"),
});

export const libIdParams = z.object({ lib: libraryIdSchema, id: z.uuid() });
export const abParams = z.object({ a: libraryIdSchema.describe("library id"), b: z.uuid().describe("story id") });

const UUID_LIST =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(,[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}){0,99}$/i;

export const downloadParams = z.object({
  a: libraryIdSchema.describe("library id"),
  b: z
    .string()
    .regex(UUID_LIST, "must be a story id or up to 100 comma-separated story ids")
    .transform((value) => [...new Set(value.toLowerCase().split(","))])
    .describe("a story id, or several comma-separated (a zip of their files)"),
});

export const favoriteBody = z.object({
  libraryId: libraryIdSchema,
  storyId: z.uuid(),
  type: z.string().trim().min(1).max(50).optional().describe("default: the story's type"),
});
export const favoriteDeleteQuery = z.object({ libraryId: libraryIdSchema, storyId: z.uuid() });
export const favoriteListQuery = pageQuery.omit({ keyword: true }).extend({
  libraryId: libraryIdSchema.optional(),
  storyId: z.uuid().optional(),
  type: z.string().max(50).optional(),
});
export const favoriteSchema = z
  .object({ libraryId: z.string(), storyId: z.string(), type: z.string(), createdAt: z.string(), story: storySchema })
  .meta({ id: "Favorite" });

export const publishBody = z
  .object({
    channel: z.string().trim().max(200).nullable().optional().describe("the publishing channel (tunnel), when known"),
    note: z.string().max(2000).nullable().optional(),
  })
  .default({});
export const publishRecordSchema = z
  .object({
    id: z.string(),
    libraryId: z.string(),
    storyId: z.string(),
    versionNo: z.number().int(),
    channel: z.string().nullable(),
    note: z.string().nullable(),
    status: z.string(),
    publishedBy: z.string().nullable(),
    publishedAt: z.string(),
  })
  .meta({ id: "PublishRecord" });

export const shareQuery = z.object({ expiresInDays: z.coerce.number().int().min(1).max(365).default(7) });
export const shareSchema = z
  .object({
    token: z.string().describe("shown once; only its sha256 is stored"),
    url: z.string(),
    expiresAt: z.string(),
  })
  .meta({ id: "ShareToken" });

export const defaultLibraryQuery = z.object({
  path: z.string().min(1).max(300).describe("/frontend/{library} or /frontend/{library}/{folderId}"),
});
export const defaultLibrarySchema = z
  .object({ libraryId: z.string(), folderId: z.string().nullable(), path: z.string() })
  .meta({ id: "DefaultLibrary" });
