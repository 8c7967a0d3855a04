import { z } from "zod";
import { libraryIdSchema } from "../libraries/libraries.schema.js";

const base64String = z
  .string()
  .min(1)
  .describe(
    "the image as a data URL (`data:image/png;base64,…`) or bare base64; JPEG, PNG or WebP by content (the declared type is ignored)",
  );

export const base64ImageBody = z.object({
  base64String,
  libraryId: libraryIdSchema,
  storyId: z.uuid().describe("the photo story the edited image becomes a new version of"),
});

/** `16:9`, `4:3`, `1:1`, also `16/9` or `1.78:1`. */
const RATIO = /^\s*(\d{1,5}(?:\.\d{1,4})?)\s*[:/]\s*(\d{1,5}(?:\.\d{1,4})?)\s*$/;

export const ratioSchema = z
  .string()
  .regex(RATIO, "must be a ratio such as 16:9")
  .transform((value, context) => {
    const [, width, height] = RATIO.exec(value)!;
    const ratio = { width: Number(width), height: Number(height) };
    if (ratio.width <= 0 || ratio.height <= 0) {
      context.addIssue({ code: "custom", message: "must be a ratio of two positive numbers" });
      return z.NEVER;
    }
    return ratio;
  })
  .describe("the crop box's aspect ratio, e.g. `16:9`");

export const coverBody = z
  .object({
    base64String: base64String.optional(),
    coverKey: z
      .string()
      .max(512)
      .optional()
      .describe("instead of base64String: the `coverKey` an earlier call without storyId answered, to attach it now"),
    ratio: ratioSchema.optional().describe("required with base64String: the crop box's ratio, e.g. `16:9`"),
    libraryId: libraryIdSchema,
    folderId: z.uuid().optional().describe("the folder the cropper was opened from (checked, not stored)"),
    storyId: z.uuid().optional().describe("the story (video, audio or composite) whose cover this becomes"),
  })
  .superRefine((body, context) => {
    if ((body.base64String === undefined) === (body.coverKey === undefined)) {
      context.addIssue({ code: "custom", path: ["base64String"], message: "give base64String or coverKey" });
    }
    if (body.base64String !== undefined && body.ratio === undefined) {
      context.addIssue({ code: "custom", path: ["ratio"], message: "required with base64String" });
    }
    if (body.coverKey !== undefined && body.storyId === undefined) {
      context.addIssue({ code: "custom", path: ["storyId"], message: "required with coverKey" });
    }
  });

export const coverResultSchema = z.object({
  libraryId: z.string(),
  storyId: z.string().nullable().describe("null when no story was given: the cover is stored, not attached yet"),
  coverKey: z.string().describe("pass it with storyId to this call later to attach a cover stored without a story"),
  coverUrl: z.string().nullable().describe("where the story's cover is served; null until attached to a story"),
  mime: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});

export const storyRefBody = z.object({ libraryId: libraryIdSchema, storyId: z.uuid() });

export const TRANSCODE_STATES = ["none", "queued", "running", "done", "failed", "cancelled"] as const;

export const transcodeTaskSchema = z.object({
  libraryId: z.string(),
  storyId: z.string(),
  versionNo: z.number().int().describe("the story's current version, the one the task processes"),
  type: z.string().describe("the story's type"),
  jobId: z.string().nullable().describe("the media job, when one was found"),
  state: z
    .enum(TRANSCODE_STATES)
    .describe(
      "none: nothing queued (a draft before commit); queued; running; done (progress 100); failed (see error); cancelled",
    ),
  progress: z.number().int().min(0).max(100).describe("0-100; 100 exactly when state is done"),
  error: z.string().nullable().describe("why the last attempt failed (also while a retry is queued)"),
});

export const videoTransTasksQuery = z.object({
  videoUrl: z
    .string()
    .min(3)
    .max(2000)
    .describe(
      "the video's story: its download URL (`/dams/api/v1/stories/download/{libraryId}/{storyId}?rendition=proxy`, `/dams/api/v1/workflow-story-download/{libraryId}/{storyId}`, absolute or relative), the story's URL, or `{libraryId}/{storyId}`",
    ),
  type: z
    .string()
    .max(32)
    .optional()
    .describe("the task kind the editor names (e.g. `video`); when a story type, the story must be of that type"),
});
