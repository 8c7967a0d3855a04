/**
 * The edit decision list (EDL) of the video editor and the image-to-video
 * editor: a versioned JSON document the browser edits over proxies and the
 * server renders over the originals (docs/video-editor.md). Times are seconds;
 * clip times (`in`, `out`) are in the source, every other time is on the
 * output timeline. Validation here is structural and bounded; whether the
 * caller may read each source and whether `out` lies within it are checked
 * when the render is planned.
 */
import { z } from "zod";
import { WATERMARK_LIMITS, WATERMARK_POSITIONS } from "../../shared/watermark.js";

/** The bounds an EDL is held to; each refusal names the one it broke. */
export const EDL_LIMITS = {
  clips: 200,
  /** Three hours of output. */
  durationSeconds: 3 * 60 * 60,
  textOverlays: 200,
  textLength: 500,
  captionCues: 2000,
  /** The watermark model's text limit (spec section 5). */
  logoTextLength: WATERMARK_LIMITS.textLength,
  titleLength: 200,
  transitionSeconds: 5,
  fadeSeconds: 10,
} as const;

export const EDL_SCHEMA_ID = "dams.edl";
export const EDL_VERSION = 1;

export const ASPECTS = ["16:9", "9:16", "1:1", "4:5"] as const;
export type Aspect = (typeof ASPECTS)[number];

/** 1080p H.264/AAC is the default; vertical is 1080×1920 whatever the aspect says. */
export const EXPORT_PRESETS = ["1080p", "720p", "vertical", "original"] as const;
export type ExportPreset = (typeof EXPORT_PRESETS)[number];

export const TRANSITIONS = ["cut", "crossfade", "dipBlack", "dipWhite"] as const;
export type TransitionType = (typeof TRANSITIONS)[number];

/** The watermark model's positions (spec section 3). */
export const LOGO_POSITIONS = WATERMARK_POSITIONS;

const seconds = z
  .number()
  .finite()
  .min(0)
  .max(EDL_LIMITS.durationSeconds * 4);
const colour = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}([0-9a-fA-F]{2})?$/, "a colour is #RRGGBB or #RRGGBBAA")
  .describe("#RRGGBB or #RRGGBBAA");
const fraction = z.number().finite().min(0).max(1);
const text = (limit: number) =>
  z.string().max(limit, `at most ${limit} characters (the limit for texts)`).describe(`at most ${limit} characters`);

export const sourceRef = z.object({
  libraryId: z.string().min(1).max(100),
  storyId: z.string().min(1).max(100),
  versionNo: z.number().int().min(1).optional().describe("default: the story's current version when rendered"),
});
export type SourceRef = z.infer<typeof sourceRef>;

/** A rectangle of an image in fractions of its (reframed) width and height; its height follows the output aspect. */
export const kenBurnsRect = z.object({
  x: fraction,
  y: fraction,
  width: z
    .number()
    .finite()
    .min(0.05)
    .max(1)
    .describe("fraction of the picture's width, and of its height (the rectangle has the output's aspect)"),
});
export type KenBurnsRect = z.infer<typeof kenBurnsRect>;

export const transition = z.object({
  type: z.enum(TRANSITIONS),
  duration: z
    .number()
    .finite()
    .min(0)
    .max(EDL_LIMITS.transitionSeconds, `a transition lasts at most ${EDL_LIMITS.transitionSeconds} s`),
});
export type Transition = z.infer<typeof transition>;

export const reframe = z.object({
  /** crop: fill the frame and cut the rest at (x, y); blur: the whole picture over a blurred copy of itself; fit: black bars. */
  mode: z.enum(["crop", "blur", "fit"]),
  x: fraction.default(0.5).describe("crop position across (0 left, 1 right)"),
  y: fraction.default(0.5).describe("crop position down (0 top, 1 bottom)"),
});
export type Reframe = z.infer<typeof reframe>;

const clipBase = {
  id: z.string().min(1).max(64),
  transition: transition.default({ type: "cut", duration: 0 }).describe("into this clip from the one before"),
  reframe: reframe.default({ mode: "crop", x: 0.5, y: 0.5 }),
};

export const videoClip = z.object({
  ...clipBase,
  kind: z.literal("video"),
  source: sourceRef,
  in: seconds.describe("seconds into the source"),
  out: seconds.describe("seconds into the source, after `in`"),
  volume: z.number().finite().min(0).max(4).default(1),
  muted: z.boolean().default(false),
});

export const imageClip = z.object({
  ...clipBase,
  kind: z.literal("image"),
  source: sourceRef,
  duration: z.number().finite().min(0.2).max(600),
  kenBurns: z.object({ start: kenBurnsRect, end: kenBurnsRect }).optional(),
  caption: text(EDL_LIMITS.textLength).optional(),
});

/** A plain background for a title card. */
export const colourClip = z.object({
  ...clipBase,
  kind: z.literal("colour"),
  colour: colour.default("#000000"),
  duration: z.number().finite().min(0.2).max(600),
});

export const clip = z.discriminatedUnion("kind", [videoClip, imageClip, colourClip]);
export type Clip = z.infer<typeof clip>;
export type VideoClip = z.infer<typeof videoClip>;
export type ImageClip = z.infer<typeof imageClip>;
export type ColourClip = z.infer<typeof colourClip>;

export const textOverlay = z.object({
  id: z.string().min(1).max(64),
  /** title: large, centred (or at `position`); lowerThird: a name and a role in a band at the lower left. */
  kind: z.enum(["title", "lowerThird"]),
  text: text(EDL_LIMITS.textLength).min(1),
  subtitle: text(EDL_LIMITS.textLength).optional().describe("the lower third's second line (the role)"),
  start: seconds,
  end: seconds,
  position: z.enum(["top", "center", "bottom"]).default("center"),
  scale: z.number().finite().min(0.25).max(4).default(1),
  colour: colour.default("#FFFFFF"),
  background: colour.optional().describe("a band behind the text; none when absent"),
});
export type TextOverlay = z.infer<typeof textOverlay>;

export const captionCue = z.object({
  start: seconds,
  end: seconds,
  text: text(EDL_LIMITS.textLength).min(1),
});
export type CaptionCue = z.infer<typeof captionCue>;

export const captions = z.object({
  /** burn: drawn into the picture; sidecar: kept as a WebVTT file on the story. */
  mode: z.enum(["burn", "sidecar"]),
  cues: z.array(captionCue).max(EDL_LIMITS.captionCues, `at most ${EDL_LIMITS.captionCues} caption cues`),
});
export type Captions = z.infer<typeof captions>;

/** The watermark model of spec section 3, on video: type 1 image (a photo story), type 2 text. */
export const logo = z.object({
  type: z.union([z.literal(1), z.literal(2)]),
  source: sourceRef.optional().describe("type 1: the photo story of the logo"),
  presetId: z
    .uuid()
    .optional()
    .describe("type 1: a watermark preset whose image is the logo (when there is no `source`)"),
  text: text(EDL_LIMITS.logoTextLength).optional().describe("type 2"),
  position: z.enum(LOGO_POSITIONS).default("lower-right"),
  opacity: z.number().int().min(WATERMARK_LIMITS.opacity.min).max(WATERMARK_LIMITS.opacity.max).default(100),
  x: z.number().finite().min(0).max(1).default(0).describe("arbitrary position: left edge, fraction of the width"),
  y: z.number().finite().min(0).max(1).default(0).describe("arbitrary position: top edge, fraction of the height"),
  sizePercent: z.number().min(1).max(100).default(15).describe("type 1: the logo's width in % of the frame's width"),
  fontSize: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(30)
    .describe("type 2: pixels at 1080 lines, scaled with the frame"),
  colour: colour.default("#FFFFFF"),
  background: colour.optional(),
});
export type Logo = z.infer<typeof logo>;

export const music = z.object({
  source: sourceRef.describe("an audio story, or a video story's sound"),
  in: seconds.default(0).describe("where in the source the music starts"),
  start: seconds.default(0).describe("where on the timeline it starts"),
  volume: z.number().finite().min(0).max(4).default(1),
  fadeIn: z.number().finite().min(0).max(EDL_LIMITS.fadeSeconds).default(0),
  fadeOut: z.number().finite().min(0).max(EDL_LIMITS.fadeSeconds).default(0),
  ducking: z.boolean().default(true).describe("lower the music while the clips' sound is loud (speech)"),
});
export type Music = z.infer<typeof music>;

export const output = z.object({
  aspect: z.enum(ASPECTS).default("16:9"),
  preset: z.enum(EXPORT_PRESETS).default("1080p"),
  fps: z.number().finite().min(1).max(60).optional().describe("default: the first video clip's, else 25"),
});
export type Output = z.infer<typeof output>;

/** The frame's aspect as rendered: the `vertical` preset is always 9:16, whatever `aspect` says. */
export function outputAspect(output: Pick<Output, "aspect" | "preset">): Aspect {
  return output.preset === "vertical" ? "9:16" : output.aspect;
}

const edlObject = z.object({
  schema: z.literal(EDL_SCHEMA_ID),
  version: z.literal(EDL_VERSION),
  title: text(EDL_LIMITS.titleLength).default(""),
  output: output.default({ aspect: "16:9", preset: "1080p" }),
  clips: z
    .array(clip)
    .min(1, "an edit needs at least one clip")
    .max(EDL_LIMITS.clips, `at most ${EDL_LIMITS.clips} clips`),
  texts: z.array(textOverlay).max(EDL_LIMITS.textOverlays, `at most ${EDL_LIMITS.textOverlays} titles`).default([]),
  captions: captions.optional(),
  logo: logo.optional(),
  music: music.optional(),
  audio: z
    .object({ normalize: z.boolean().default(true).describe("loudness to −23 LUFS (EBU R128) on export") })
    .default({ normalize: true }),
  poster: z.object({ time: seconds }).optional().describe("the frame that becomes the story's cover"),
});

/** Seconds of a clip on the timeline (before transitions overlap it with its neighbours). */
export function clipDuration(clip: Clip): number {
  return clip.kind === "video" ? clip.out - clip.in : clip.duration;
}

/** The transition into clip `index`; the first clip has none. */
export function transitionInto(clips: readonly Clip[], index: number): Transition {
  const into = clips[index]?.transition;
  return index === 0 || !into || into.type === "cut" ? { type: "cut", duration: 0 } : into;
}

/** The output's length: the clips' durations less the overlap of each transition. */
export function timelineDuration(clips: readonly Clip[]): number {
  return clips.reduce((total, clip, index) => total + clipDuration(clip) - transitionInto(clips, index).duration, 0);
}

type EdlInput = z.infer<typeof edlObject>;

/** The rules that span fields; each message names the field and the limit. */
function checkEdl(edl: EdlInput, context: z.RefinementCtx): void {
  const issue = (path: (string | number)[], message: string) => context.addIssue({ code: "custom", path, message });
  edl.clips.forEach((clip, index) => {
    if (clip.kind === "video" && clip.out <= clip.in) issue(["clips", index, "out"], "out must be after in");
    if (clip.kind === "image" && clip.kenBurns) {
      for (const end of ["start", "end"] as const) {
        const rect = clip.kenBurns[end];
        if (rect.x + rect.width > 1.0001 || rect.y + rect.width > 1.0001)
          issue(["clips", index, "kenBurns", end], "the rectangle must lie within the picture");
      }
    }
    const into = transitionInto(edl.clips, index);
    if (into.type === "cut") return;
    if (into.duration <= 0) issue(["clips", index, "transition", "duration"], "a transition needs a duration");
    const shorter = Math.min(clipDuration(clip), clipDuration(edl.clips[index - 1]!));
    if (into.duration > shorter / 2 + 1e-9)
      issue(
        ["clips", index, "transition", "duration"],
        `a transition lasts at most half of the shorter clip beside it (${(shorter / 2).toFixed(2)} s)`,
      );
  });
  const total = timelineDuration(edl.clips);
  if (total > EDL_LIMITS.durationSeconds)
    issue(["clips"], `the edit lasts ${Math.round(total)} s; at most ${EDL_LIMITS.durationSeconds} s (3 hours)`);
  edl.texts.forEach((overlay, index) => {
    if (overlay.end <= overlay.start) issue(["texts", index, "end"], "end must be after start");
  });
  edl.captions?.cues.forEach((cue, index) => {
    if (cue.end <= cue.start) issue(["captions", "cues", index, "end"], "end must be after start");
  });
  if (edl.logo?.type === 1 && !edl.logo.source && !edl.logo.presetId)
    issue(["logo", "source"], "an image logo needs its photo story or a watermark preset");
  if (edl.logo?.type === 2 && !edl.logo.text?.trim()) issue(["logo", "text"], "please enter watermark text.");
  if (edl.music && edl.music.fadeIn + edl.music.fadeOut > total)
    issue(["music"], "the music's fades are longer than the edit");
}

export const edlSchema = edlObject.superRefine(checkEdl);
export type Edl = z.infer<typeof edlSchema>;

/** A project's EDL as it is autosaved: the same rules, but it may have no clip yet. */
export const draftEdlSchema = edlObject
  .extend({ clips: z.array(clip).max(EDL_LIMITS.clips, `at most ${EDL_LIMITS.clips} clips`) })
  .superRefine(checkEdl);
export type DraftEdl = z.infer<typeof draftEdlSchema>;

/** Every story an EDL reads: clips, logo and music, each once. */
export function edlSources(edl: Edl): SourceRef[] {
  const refs: SourceRef[] = [];
  for (const clip of edl.clips) if (clip.kind !== "colour") refs.push(clip.source);
  if (edl.logo?.type === 1 && edl.logo.source) refs.push(edl.logo.source);
  if (edl.music) refs.push(edl.music.source);
  const seen = new Set<string>();
  return refs.filter((ref) => {
    const key = sourceKey(ref);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** One key per story and version (`library/story@version`, or `@current`). */
export function sourceKey(ref: SourceRef): string {
  return `${ref.libraryId}/${ref.storyId}@${ref.versionNo ?? "current"}`;
}
