import { z } from "zod";
import { pageQuery } from "../../http/envelope.js";
import { libraryIdSchema } from "../libraries/libraries.schema.js";

export const SHARE_KINDS = ["story", "stories", "folder", "search"] as const;
export const DOWNLOAD_POLICIES = ["none", "preview", "preset", "original"] as const;
export const METADATA_LEVELS = ["basic", "all"] as const;

/** The quick default of spec section 7 (`GET /workflow-story-share/story/{a}/{b}`). */
export const shareQuery = z.object({ expiresInDays: z.coerce.number().int().min(1).max(3650).default(7) });

export const shareSchema = z
  .object({
    id: z.uuid(),
    token: z.string().describe("shown once; only its sha256 is stored"),
    url: z.string().describe("the visitor page: /share/storyPreview?token=…"),
    expiresAt: z.string().nullable().describe("null: never expires"),
  })
  .meta({ id: "ShareToken" });

const storyRef = z.object({ libraryId: libraryIdSchema, storyId: z.uuid() });
const searchValue = z.union([z.string().max(500), z.number(), z.boolean()]);

export const shareTarget = z
  .discriminatedUnion("kind", [
    z.object({ kind: z.literal("story"), libraryId: libraryIdSchema, storyId: z.uuid() }),
    z.object({ kind: z.literal("stories"), stories: z.array(storyRef).min(1).max(500) }),
    z.object({ kind: z.literal("folder"), libraryId: libraryIdSchema, folderId: z.uuid() }),
    z.object({
      kind: z.literal("search"),
      query: z
        .record(z.string().max(40), searchValue)
        .describe("the search list's query (GET /stories), as its parameters: fulltext, libraryId, types…"),
    }),
  ])
  .meta({ id: "ShareTarget" });

export const uploadDropInput = z
  .object({
    libraryId: libraryIdSchema,
    folderId: z.uuid().describe("the folder visitors' files go to; the owner must be able to write there"),
    maxFiles: z
      .number()
      .int()
      .min(1)
      .max(10_000)
      .nullable()
      .optional()
      .describe("at most this many files; null: no limit"),
    maxBytes: z
      .number()
      .int()
      .min(1)
      .nullable()
      .optional()
      .describe("at most this many bytes per file; null: the server's upload limit"),
  })
  .meta({ id: "ShareUploadDropInput" });

const shareOptionFields = {
  title: z.string().trim().max(200).optional().describe("shown to visitors; default: the story's or folder's name"),
  message: z.string().max(2000).nullable().optional().describe("a note to the visitor"),
  expiresAt: z.iso
    .datetime({ offset: true })
    .nullable()
    .optional()
    .describe("when the link stops working; default in 7 days; null: never (when the administrator allows it)"),
  password: z.string().min(4).max(200).nullable().optional().describe("visitors give it first; null: none"),
  viewLimit: z.number().int().min(1).max(1_000_000).nullable().optional(),
  downloadLimit: z.number().int().min(1).max(1_000_000).nullable().optional(),
  downloadPolicy: z
    .enum(DOWNLOAD_POLICIES)
    .optional()
    .describe("what visitors may download: nothing, previews (default), a download preset's rendition, the original"),
  downloadPresetId: z
    .uuid()
    .nullable()
    .optional()
    .describe("with downloadPolicy `preset`: the download preset (one the owner may use) whose rendition visitors get"),
  metadata: z.enum(METADATA_LEVELS).optional().describe("basic (caption and credit, default) or all"),
  keepLocation: z
    .boolean()
    .optional()
    .describe(
      "keep GPS, location tags and camera serial numbers: shown with `all` metadata, left in downloaded files (default: stripped from both)",
    ),
  uploadDrop: uploadDropInput
    .nullable()
    .optional()
    .describe(
      "let visitors upload files (tus, /shared/uploads) into this folder, as drafts with their name; null: no drop",
    ),
};

export const createShareBody = z.object({ target: shareTarget, ...shareOptionFields }).meta({ id: "CreateShare" });
export type CreateShareInput = z.infer<typeof createShareBody>;

export const updateShareBody = z.object(shareOptionFields).meta({ id: "UpdateShare" });
export type UpdateShareInput = z.infer<typeof updateShareBody>;

export const shareIdParams = z.object({ shareId: z.uuid() });

export const SHARE_STATES = ["active", "expired", "revoked", "used-up"] as const;

export const shareListQuery = pageQuery.extend({
  all: z
    .enum(["true", "false"])
    .optional()
    .transform((value) => value === "true")
    .describe("administrators: every user's shares"),
  owner: z.string().trim().min(1).max(100).optional().describe("administrators: only the shares this user (id) made"),
  state: z.enum(SHARE_STATES).optional().describe("only shares in this state now"),
  keyword: z.string().trim().max(200).optional().describe("words of the share's title or message"),
});

export const shareItemSchema = z
  .object({
    id: z.uuid(),
    kind: z.enum(SHARE_KINDS),
    title: z.string(),
    target: z
      .string()
      .nullable()
      .describe(
        "what it points at, as the owner can read it now: the story's title (several: the first's), the folder's name, the search's words",
      ),
    message: z.string().nullable(),
    libraryId: z.string().nullable(),
    folderId: z.string().nullable(),
    storyCount: z.number().int().nullable().describe("stories of a story list; null for folders and searches"),
    hasPassword: z.boolean(),
    expiresAt: z.string().nullable(),
    viewLimit: z.number().int().nullable(),
    downloadLimit: z.number().int().nullable(),
    views: z.number().int(),
    downloads: z.number().int(),
    downloadPolicy: z.enum(DOWNLOAD_POLICIES),
    downloadPresetId: z.string().nullable(),
    metadata: z.enum(METADATA_LEVELS),
    keepLocation: z.boolean(),
    createdBy: z.string().nullable(),
    createdByName: z
      .string()
      .nullable()
      .describe("the owner's name (user name when they have none); null once deleted"),
    createdAt: z.string(),
    revokedAt: z.string().nullable(),
    lastVisitAt: z.string().nullable(),
    state: z.enum(SHARE_STATES),
    uploadDrop: z
      .object({
        libraryId: z.string(),
        folderId: z.string(),
        folderName: z.string().nullable().describe("as the owner can read it now"),
        maxFiles: z.number().int().nullable(),
        maxBytes: z.number().int().nullable(),
        files: z.number().int().describe("files visitors dropped so far"),
      })
      .nullable(),
  })
  .meta({ id: "ShareItem" });

export const SHARE_VISIT_ACTIONS = [
  "open",
  "locked",
  "unlock",
  "wrong-password",
  "view",
  "download",
  "zip",
  "upload",
] as const;

export const shareVisitsQuery = pageQuery.omit({ keyword: true });

export const shareVisitSchema = z
  .object({
    id: z.number().int(),
    at: z.string(),
    address: z
      .string()
      .nullable()
      .describe("the visitor's address as the server sees it (behind a trusted proxy: the client's)"),
    action: z
      .enum(SHARE_VISIT_ACTIONS)
      .describe(
        "open: the stories were shown (a view counted); locked: opened before the password; unlock; wrong-password; view: a story's preview or player; download: one file; zip: all files; upload: a file dropped (storyId: its draft)",
      ),
    visitorName: z.string().nullable().describe("the name the visitor gave with an upload"),
    storyId: z.string().nullable(),
    storyTitle: z.string().nullable().describe("the story's title, when the reader can still read it"),
    userAgent: z.string().nullable().describe("the first characters of the browser's User-Agent"),
  })
  .meta({ id: "ShareVisit" });

export const shareSettingsSchema = z
  .object({
    maxDays: z.number().int().min(1).max(3650).describe("the longest expiry a share may have"),
    allowNever: z.boolean().describe("whether a share may never expire"),
  })
  .meta({ id: "ShareSettings" });

// The visitor's side.

export const unlockBody = z.object({ password: z.string().min(1).max(200) });
export const unlockSchema = z.object({
  session: z.string().describe("send as X-Share-Session with the token; valid for this share only"),
  expiresAt: z.string(),
});

const visitorFile = z.object({
  role: z.string(),
  mime: z.string(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  url: z.string().describe("signed for this share, short-lived"),
});

const visitorStoryFields = {
  storyId: z.string(),
  type: z.string(),
  title: z.string(),
  caption: z.string(),
  credit: z.string().describe("authors, and the source"),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  duration: z.number().nullable(),
  thumbnail: z.string().nullable(),
  preview: visitorFile.nullable().describe("the photo's preview or the video's/audio's proxy to play"),
  poster: z.string().nullable(),
  downloadUrl: z.string().nullable().describe("null when the share allows no download of this story"),
  metadata: z.record(z.string(), z.unknown()).nullable().describe("with `all` metadata: the rest of the fields"),
};

export const visitorStorySchema = z
  .object({
    ...visitorStoryFields,
    members: z.array(z.object(visitorStoryFields)).describe("a composite's members, in order"),
    textParts: z
      .array(
        z.discriminatedUnion("kind", [
          z.object({ kind: z.literal("html"), html: z.string() }),
          z.object({ kind: z.literal("member"), storyId: z.string() }),
        ]),
      )
      .describe(
        "a composite's text (server-written HTML) split around its member nodes, in order; a member part names one of `members` by id. Empty: no text",
      ),
  })
  .meta({ id: "ShareVisitorStory" });

export const visitorShareSchema = z
  .object({
    kind: z.enum(SHARE_KINDS),
    title: z.string(),
    message: z.string().nullable(),
    locked: z.boolean().describe("a password is needed (POST /shared/unlock) before anything else"),
    expiresAt: z.string().nullable(),
    downloadPolicy: z.enum(DOWNLOAD_POLICIES),
    zipUrl: z.string().nullable().describe("every allowed file in one zip, when the share allows downloads"),
    owner: z.string().describe("who shared it (their display name)"),
    stories: z.array(visitorStorySchema),
    truncated: z.boolean().describe("a folder or search with more stories than one page shows"),
    uploadDrop: z
      .object({
        maxFiles: z.number().int().nullable(),
        maxBytes: z.number().int().nullable(),
        files: z.number().int(),
      })
      .nullable()
      .describe(
        "visitors may upload files (tus at /shared/uploads, Upload-Metadata visitorName); null: no drop, or locked",
      ),
  })
  .meta({ id: "ShareVisitorView" });

export const shareFileParams = z.object({ token: z.string().max(2000) });
