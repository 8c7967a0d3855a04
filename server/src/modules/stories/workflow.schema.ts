import { z } from "zod";
import { libraryIdSchema } from "../libraries/libraries.schema.js";
import { downloadQuery, storyMetadataSchema } from "./stories.schema.js";

const memberRef = z.object({ libraryId: libraryIdSchema, storyId: z.uuid() });

/** A composite's text as the editor sends it (TipTap JSON); the server rebuilds it from its whitelist. */
export const compositeTextInput = z
  .object({ type: z.literal("doc"), content: z.array(z.unknown()).optional() })
  .nullable()
  .optional()
  .describe(
    'composite stories only: the text, a TipTap/ProseMirror JSON document {type:"doc", content:[…]}; null removes it. Rebuilt from a whitelist (nodes doc, paragraph, heading 1–4, bulletList, orderedList, listItem, blockquote, horizontalRule, hardBreak, text, member {storyId}; marks bold, italic, strike, underline, code, link with an http/https/mailto href); anything else is dropped. A member node must name one of the composite\'s members. At most 512 KiB of JSON, 24 levels, 20 000 nodes: else 400 naming `text`',
  );

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
  text: compositeTextInput,
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

export const editParams = z.object({ storyId: z.uuid() });
export const editQuery = z.object({ libraryId: libraryIdSchema });
export const editBody = storyMetadataSchema.extend({
  properties: storyMetadataSchema.shape.properties.describe(
    "custom properties, merged into the story's; a null value removes the key; `lastVersion` is the server's. Checked against /properties/list for the story's type and library: 400 `invalid_property` naming `properties.<name>` for a value of the wrong kind or not in its code list, and, for a committed or published story, for a required one left empty",
  ),
  folderId: z.uuid().nullable().optional().describe("move within the library; null: the root"),
  members: z.array(memberRef).max(500).optional(),
  text: compositeTextInput,
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

/** The most stories one zip holds (docs/stories.md). */
export const ZIP_MAX_STORIES = 100;

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const UUID_LIST = new RegExp(`^${UUID}(,${UUID}){0,${ZIP_MAX_STORIES - 1}}$`, "i");

const storyIdList = z
  .string()
  .regex(UUID_LIST, `must be a story id or up to ${ZIP_MAX_STORIES} comma-separated story ids`)
  .transform((value) => [...new Set(value.toLowerCase().split(","))]);

export const downloadParams = z.object({
  libraryId: libraryIdSchema,
  storyIds: storyIdList.describe(
    "a story id, or several comma-separated (a zip of their files); a path parameter holds at most 500 characters (13 ids): use the storyIds query for more",
  ),
});

export const zipDownloadParams = z.object({ libraryId: libraryIdSchema });
export const zipDownloadQuery = downloadQuery.omit({ v: true, versionNo: true }).extend({
  storyIds: storyIdList.describe(`up to ${ZIP_MAX_STORIES} comma-separated story ids of the library`),
});
