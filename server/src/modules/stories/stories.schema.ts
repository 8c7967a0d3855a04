import { z } from "zod";
import { pageQuery } from "../../http/envelope.js";
import { libraryIdSchema } from "../libraries/libraries.schema.js";
import { PROCESSING_STATES, STORY_STATUSES, STORY_TYPES } from "./story-types.js";

const shortText = z.string().trim().max(500);
const nameList = z.array(z.string().trim().min(1).max(200)).max(100);

export const gpsSchema = z.object({
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  altitude: z.number().optional(),
});

export const storyMetadataSchema = z.object({
  title: shortText.optional(),
  caption: z.string().max(20_000).optional(),
  authors: nameList.optional(),
  source: shortText.nullable().optional(),
  keywords: nameList.optional(),
  tags: nameList.optional(),
  theme: shortText.nullable().optional(),
  category: shortText.nullable().optional(),
  halfProduct: z.boolean().optional().describe("a half product (work in progress)"),
  capturedAt: z.iso
    .datetime({ offset: true })
    .nullable()
    .optional()
    .describe("when the photo or recording was made (ISO-8601); null clears it"),
  properties: z
    .record(z.string().max(100), z.unknown())
    .optional()
    .describe(
      "custom properties, merged into the story's; a null value removes the key; `lastVersion` is the server's",
    ),
});

const fileSchema = z.object({
  versionNo: z.number().int(),
  role: z.string().describe("original, thumbnail, preview, proxy, poster, strip, waveform…"),
  mime: z.string(),
  size: z.number().int(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  url: z.string().describe("the file under /stories/download (bearer token)"),
  mediaUrl: z.string().describe("a short-lived signed URL of the file for <img>/<video>/<audio>, no bearer token"),
});

export const storySchema = z
  .object({
    id: z.string(),
    storyId: z.string().describe("the same as id"),
    libraryId: z.string(),
    folderId: z.string().nullable(),
    type: z.enum(STORY_TYPES),
    halfProduct: z.boolean(),
    status: z.enum(STORY_STATUSES),
    title: z.string(),
    caption: z.string(),
    authors: z.array(z.string()),
    source: z.string().nullable(),
    keywords: z.array(z.string()),
    tags: z.array(z.string()),
    theme: z.string().nullable(),
    category: z.string().nullable(),
    properties: z
      .record(z.string(), z.unknown())
      .describe("custom properties; lastVersion = the previous version's oid"),
    oid: z.string().describe("the current version's oid"),
    versionNo: z.number().int().describe("the current version"),
    contentSha256: z.string().nullable(),
    perceptualHash: z.string().nullable().describe("64-bit perceptual hash of a photo, 16 hex characters"),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    duration: z.number().nullable().describe("seconds"),
    size: z.number().int().nullable(),
    mime: z.string().nullable(),
    originalName: z.string().nullable(),
    capturedAt: z.string().nullable(),
    gps: gpsSchema.nullable(),
    processingState: z.enum(PROCESSING_STATES),
    processingError: z.string().nullable(),
    createdBy: z.string().nullable(),
    createdAt: z.string(),
    updatedBy: z.string().nullable(),
    updatedAt: z.string(),
    revision: z
      .number()
      .int()
      .describe("one more with every change of the metadata; the story's ETag, an edit's If-Match (docs/stories.md)"),
    coverUrl: z.string().nullable(),
    thumbnailUrl: z.string().nullable(),
    coverMediaUrl: z.string().nullable().describe("signed, short-lived coverUrl"),
    thumbnailMediaUrl: z.string().nullable().describe("signed, short-lived thumbnailUrl"),
    files: z.array(fileSchema).describe("the current version's files"),
    members: z.array(z.string()).describe("member story ids of a composite, in order"),
  })
  .meta({ id: "Story" });

export const versionSchema = z
  .object({
    storyId: z.string(),
    versionNo: z.number().int(),
    oid: z.string(),
    sha256: z.string().nullable(),
    size: z.number().int().nullable(),
    mime: z.string().nullable(),
    originalName: z.string().nullable(),
    note: z.string().nullable(),
    createdBy: z.string().nullable(),
    createdAt: z.string(),
    current: z.boolean(),
    files: z.array(fileSchema),
  })
  .meta({ id: "StoryVersion" });

export const storyParams = z.object({ libraryId: libraryIdSchema, storyId: z.uuid() });
export const versionParams = storyParams.extend({ versionNo: z.coerce.number().int().min(1) });

export const myStoriesParams = z.object({
  libraryId: z
    .union([z.literal("all"), libraryIdSchema])
    .describe("a library id, or `all` for every library the caller can read"),
});

export const repeatQuery = z.object({
  libraryId: libraryIdSchema,
  storyId: z.uuid().optional().describe("duplicates of this story; absent: every group in the library"),
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/, "must be 64 lower-case hex characters")
    .optional()
    .describe("stories holding these bytes (check before an upload)"),
  distance: z.coerce
    .number()
    .int()
    .min(0)
    .max(16)
    .default(6)
    .describe("largest Hamming distance of near-duplicate photos"),
});

export const duplicateGroupSchema = z
  .object({
    kind: z.enum(["exact", "near"]),
    sha256: z.string().nullable(),
    distance: z.number().int().nullable(),
    stories: z.array(storySchema),
  })
  .meta({ id: "DuplicateGroup" });

export const usedInfoSchema = z
  .object({ photo: z.number().int(), video: z.number().int(), audio: z.number().int(), composite: z.number().int() })
  .meta({ id: "UsedInfo" });

export const storyActionSchema = z
  .object({
    id: z.string(),
    libraryId: z.string(),
    storyId: z.string(),
    userId: z.string().nullable(),
    username: z.string().nullable(),
    action: z.string(),
    at: z.string(),
    ip: z.string().nullable(),
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "StoryAction" });

export const storyActionsQuery = pageQuery
  .omit({ keyword: true })
  .extend({ libraryId: libraryIdSchema, storyId: z.uuid() });

export const downloadQuery = z.object({
  rendition: z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,31}$/, "must be a rendition role")
    .optional()
    .describe("original (default), thumbnail, preview, proxy, poster, strip, waveform or cover"),
  versionNo: z.coerce.number().int().min(1).optional(),
  v: z
    .string()
    .regex(/^[0-9a-f]{1,64}$/, "must be the token of a cover URL")
    .optional()
    .describe("ignored: the cover URL carries it so that a new cover has a new URL (no cached image is shown)"),
});

/** A composite's text as GET /stories/{libraryId}/{storyId}/text gives it (issue 15). */
export const compositeTextSchema = z
  .object({
    doc: z
      .looseObject({ type: z.literal("doc"), content: z.array(z.unknown()).optional() })
      .nullable()
      .describe("the sanitised TipTap JSON document, or null when the composite has no text"),
    html: z
      .string()
      .describe('the server-written HTML of the whole text; member nodes are <div data-member-story-id="…"></div>'),
    parts: z
      .array(
        z.discriminatedUnion("kind", [
          z.object({ kind: z.literal("html"), html: z.string() }),
          z.object({ kind: z.literal("member"), storyId: z.string() }),
        ]),
      )
      .describe("the HTML split around the member nodes, in order, so a page can place the members' media inline"),
    members: z
      .array(
        z.object({
          storyId: z.string(),
          libraryId: z.string(),
          type: z.string(),
          title: z.string(),
          thumbnailUrl: z.string().nullable().describe("signed, short-lived: an <img> may load it"),
        }),
      )
      .describe("the composite's members the caller may see, in its order"),
  })
  .meta({ id: "CompositeText" });
