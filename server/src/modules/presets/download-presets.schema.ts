import { z } from "zod";
import { pageQuery } from "../../http/envelope.js";
import { libraryIdSchema } from "../libraries/libraries.schema.js";

export const PRESET_STORY_TYPES = ["photo", "video", "audio"] as const;
export const PHOTO_FORMATS = ["jpeg", "webp", "png", "avif"] as const;
export const VIDEO_FORMATS = ["mp4"] as const;
export const AUDIO_FORMATS = ["aac", "mp3"] as const;
/** The formats a preset of each story type may make. */
export const FORMATS_OF = { photo: PHOTO_FORMATS, video: VIDEO_FORMATS, audio: AUDIO_FORMATS } as const;

/**
 * What a rendition is (docs/presets.md): a format of the story type, a box
 * it fits inside (never enlarged), quality (photos), sRGB, which metadata
 * goes with it, bitrates (video and audio).
 */
export const renditionSettings = z
  .object({
    format: z.enum([...PHOTO_FORMATS, ...VIDEO_FORMATS, ...AUDIO_FORMATS]),
    maxWidth: z.number().int().min(16).max(20_000).nullable().describe("null: no limit"),
    maxHeight: z.number().int().min(16).max(20_000).nullable(),
    quality: z.number().int().min(1).max(100).describe("photos: encoder quality"),
    srgb: z.boolean().describe("photos: convert to sRGB and embed its profile"),
    metadata: z
      .enum(["all", "rights", "none"])
      .describe(
        "all: every tag kept and every story field embedded; rights (the default): the file's credit, caption and copyright, and the story's title, headline, caption, authors, credit, source, copyright and usage terms embedded; none: no metadata at all (nothing embedded)",
      ),
    videoBitrateKbps: z.number().int().min(100).max(100_000),
    audioBitrateKbps: z.number().int().min(32).max(512),
  })
  .meta({ id: "RenditionSettings" });
export type RenditionSettings = z.infer<typeof renditionSettings>;

export const downloadPresetBody = z
  .object({
    name: z.string().trim().min(1).max(100),
    storyType: z.enum(PRESET_STORY_TYPES),
    settings: renditionSettings,
    watermarkPresetId: z.uuid().nullable(),
    roleIds: z.array(z.string().min(1).max(100)).max(100).describe("the roles that may use it; empty: every role"),
    enabled: z.boolean(),
  })
  .superRefine((body, context) => {
    const formats: readonly string[] = FORMATS_OF[body.storyType];
    if (!formats.includes(body.settings.format)) {
      context.addIssue({
        code: "custom",
        path: ["settings", "format"],
        message: `a ${body.storyType} preset makes ${formats.join(", ")}`,
      });
    }
    if (body.storyType === "audio" && body.watermarkPresetId) {
      context.addIssue({ code: "custom", path: ["watermarkPresetId"], message: "audio takes no watermark" });
    }
  });
export type DownloadPresetInput = z.infer<typeof downloadPresetBody>;

export const downloadPresetSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    storyType: z.enum(PRESET_STORY_TYPES),
    settings: renditionSettings,
    watermarkPresetId: z.string().nullable(),
    roleIds: z.array(z.string()),
    enabled: z.boolean(),
    revision: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "DownloadPreset" });
export type DownloadPresetView = z.infer<typeof downloadPresetSchema>;

export const downloadPresetListQuery = pageQuery;
export const usablePresetQuery = z.object({
  storyType: z.enum(PRESET_STORY_TYPES).optional().describe("only the presets of this story type"),
});

export const renditionStateSchema = z
  .object({
    storyId: z.string(),
    versionNo: z.number().int(),
    state: z.enum(["queued", "running", "done", "failed"]),
    mime: z.string().nullable(),
    size: z.number().nullable(),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    error: z.string().nullable(),
  })
  .meta({ id: "PresetRenditionState" });
export type RenditionState = z.infer<typeof renditionStateSchema>;

export const renditionParams = z.object({ presetId: z.uuid(), libraryId: libraryIdSchema });
export const renditionFileParams = renditionParams.extend({ storyId: z.uuid() });
export const renditionRequestBody = z.object({
  storyIds: z.array(z.uuid()).min(1).max(100),
  versionNo: z.number().int().min(1).optional().describe("one story only: this version instead of the current one"),
});
export const renditionFileQuery = z.object({ versionNo: z.coerce.number().int().min(1).optional() });
export const renditionZipQuery = z.object({
  storyIds: z
    .string()
    .transform((value) => value.split(",").filter(Boolean))
    .pipe(z.array(z.uuid()).min(1).max(100)),
});
