/**
 * The image editor's validation rules and limits (spec sections 4, 5 and 9),
 * free of React and of the canvas so every boundary can be unit tested.
 */
import { WATERMARK_LIMITS } from "@shared/watermark";

// ---------------------------------------------------------------- platform limits (section 9)

export interface SizeLimit {
  /** Longest side in pixels. */
  px: number;
  /** File size in megabytes. */
  mb: number;
}

export type LimitedFeature = "resize" | "rotate" | "crop" | "watermark" | "ps" | "colour" | "advancedRender" | "mosaic";

export interface PlatformLimits {
  kind: "small" | "large";
  features: Record<LimitedFeature, SizeLimit>;
  /** The longest side the resize mode may produce. */
  maxResizeLength: number;
}

type Platform = PlatformLimits["kind"];

/** Each feature's limit on a small platform (32-bit Windows) and on a large one, side by side as section 9 gives them. */
const FEATURE_LIMITS: Record<LimitedFeature, Record<Platform, SizeLimit>> = {
  resize: { small: { px: 7000, mb: 15 }, large: { px: 20000, mb: 50 } },
  rotate: { small: { px: 5000, mb: 15 }, large: { px: 10000, mb: 20 } },
  crop: { small: { px: 5000, mb: 15 }, large: { px: 10000, mb: 20 } },
  watermark: { small: { px: 5000, mb: 15 }, large: { px: 10000, mb: 20 } },
  ps: { small: { px: 4000, mb: 8 }, large: { px: 10000, mb: 20 } },
  colour: { small: { px: 4000, mb: 8 }, large: { px: 10000, mb: 20 } },
  advancedRender: { small: { px: 4000, mb: 8 }, large: { px: 10000, mb: 20 } },
  mosaic: { small: { px: 4000, mb: 8 }, large: { px: 6000, mb: 20 } },
};

const limitsOf = (kind: Platform, maxResizeLength: number): PlatformLimits => ({
  kind,
  features: Object.fromEntries(
    Object.entries(FEATURE_LIMITS).map(([feature, limits]) => [feature, limits[kind]]),
  ) as Record<LimitedFeature, SizeLimit>,
  maxResizeLength,
});

export const SMALL_LIMITS = limitsOf("small", 5000);
export const LARGE_LIMITS = limitsOf("large", 10000);

export interface PlatformHints {
  userAgent: string;
  /** `navigator.userAgentData.platform` where the browser has it. */
  platform?: string;
  /** `bitness` from `navigator.userAgentData.getHighEntropyValues(["bitness"])`, "32" or "64". */
  bitness?: string;
}

/**
 * 32-bit Windows: a Windows user agent without any 64-bit marker (Win64, x64,
 * WOW64 — a 32-bit browser on 64-bit Windows still has the 64-bit address
 * space of the OS — amd64), or user-agent client hints saying bitness 32.
 */
export function isWindows32(hints: PlatformHints): boolean {
  const windows = /Windows/i.test(hints.userAgent) || /^Windows$/i.test(hints.platform ?? "");
  if (!windows) return false;
  if (hints.bitness) return hints.bitness === "32";
  return !/Win64|WOW64|x64|amd64|x86_64/i.test(hints.userAgent);
}

export function platformLimits(hints: PlatformHints): PlatformLimits {
  return isWindows32(hints) ? SMALL_LIMITS : LARGE_LIMITS;
}

interface UserAgentData {
  platform?: string;
  getHighEntropyValues?: (hints: string[]) => Promise<{ bitness?: string; platform?: string }>;
}

/** Reads the hints from the browser: the user agent at once, the client-hint bitness where the browser gives it. */
export async function detectPlatformLimits(
  nav: Pick<Navigator, "userAgent"> & { userAgentData?: UserAgentData } = navigator as Navigator & {
    userAgentData?: UserAgentData;
  },
): Promise<PlatformLimits> {
  const hints: PlatformHints = { userAgent: nav.userAgent };
  const data = nav.userAgentData;
  if (data?.platform) hints.platform = data.platform;
  if (data?.getHighEntropyValues) {
    try {
      const values = await data.getHighEntropyValues(["bitness"]);
      if (values.bitness) hints.bitness = values.bitness;
    } catch {
      /* the user agent string decides */
    }
  }
  return platformLimits(hints);
}

/** Whether a feature may work on an image of this size: the longer side and the file size within the platform's limit. */
export function featureAllowed(
  limits: PlatformLimits,
  feature: LimitedFeature,
  image: { width: number; height: number; bytes: number },
): boolean {
  const limit = limits.features[feature];
  return Math.max(image.width, image.height) <= limit.px && image.bytes <= limit.mb * 1024 * 1024;
}

// ---------------------------------------------------------------- file types (section 5)

export {
  acceptAttribute,
  extensionOf,
  HEADER_UPLOAD_EXTENSIONS,
  isAcceptedImage,
  PICK_IMAGE_EXTENSIONS,
  WATERMARK_IMAGE_EXTENSIONS,
} from "./file-types";

// ---------------------------------------------------------------- watermark (section 5)

export const WATERMARK_TEXT_MAX = WATERMARK_LIMITS.textLength;
export const FONT_SIZE_MIN = WATERMARK_LIMITS.fontSize.min;
export const FONT_SIZE_MAX = WATERMARK_LIMITS.fontSize.max;
export const FONT_PREVIEW_MAX = 100;

export type TextProblem = "required" | "tooLong";

/** 'please enter watermark text.' or 'watermark text may contain at most 100 characters.' (counted in characters, not UTF-16 units). */
export function watermarkTextProblem(text: string): TextProblem | null {
  if (text.trim() === "") return "required";
  if ([...text].length > WATERMARK_TEXT_MAX) return "tooLong";
  return null;
}

const isIntegerIn = (value: number, min: number, max: number): boolean =>
  Number.isFinite(value) && Number.isInteger(value) && value >= min && value <= max;

/** Font size 1 to 1000; outside it the action is silently refused. */
export const fontSizeAccepted = (size: number): boolean => isIntegerIn(size, FONT_SIZE_MIN, FONT_SIZE_MAX);
/** The preview shows at most 100 px. */
export const previewFontSize = (size: number): number => Math.min(size, FONT_PREVIEW_MAX);
export const opacityAccepted = (opacity: number): boolean =>
  isIntegerIn(opacity, WATERMARK_LIMITS.opacity.min, WATERMARK_LIMITS.opacity.max);
export const imageSizeAccepted = (percent: number): boolean =>
  isIntegerIn(percent, WATERMARK_LIMITS.sizePercent.min, WATERMARK_LIMITS.sizePercent.max);
/** Arbitrary position: x 0 to the image width, y 0 to the image height; otherwise silently refused. */
export const positionAccepted = (x: number, y: number, width: number, height: number): boolean =>
  Number.isFinite(x) && Number.isFinite(y) && x >= 0 && x <= width && y >= 0 && y <= height;

// ---------------------------------------------------------------- resize (section 5)

export interface ResizeState {
  width: number;
  height: number;
  percent: number;
  locked: boolean;
}

/** Percent 1 to limit × 100 / longer side, capped at 200. */
export function maxResizePercent(original: { width: number; height: number }, maxLength: number): number {
  return Math.max(1, Math.min(200, Math.floor((maxLength * 100) / Math.max(original.width, original.height))));
}

/** The resize form for an image: it starts at 100 %, or at the maximum when that is lower. */
export function initialResize(original: { width: number; height: number }, maxLength: number): ResizeState {
  const percent = Math.min(100, maxResizePercent(original, maxLength));
  return {
    width: Math.max(1, Math.round((original.width * percent) / 100)),
    height: Math.max(1, Math.round((original.height * percent) / 100)),
    percent,
    locked: true,
  };
}

const atLeastOne = (value: number): number => Math.max(1, Math.round(value));

type Side = "width" | "height";
const OTHER_SIDE: Record<Side, Side> = { width: "height", height: "width" };

/** A new width or height; with the lock on, the other side and the percent follow (rounded, never below 1). */
function resizeSide(
  state: ResizeState,
  side: Side,
  length: number,
  original: { width: number; height: number },
): ResizeState {
  if (!state.locked) return { ...state, [side]: length };
  const other = OTHER_SIDE[side];
  return {
    ...state,
    [side]: length,
    [other]: atLeastOne((length * original[other]) / original[side]),
    percent: atLeastOne((length * 100) / original[side]),
  };
}

export const resizeWidth = (state: ResizeState, width: number, original: { width: number; height: number }) =>
  resizeSide(state, "width", width, original);

export const resizeHeight = (state: ResizeState, height: number, original: { width: number; height: number }) =>
  resizeSide(state, "height", height, original);

/** A new percent scales both sides. */
export function resizePercent(
  state: ResizeState,
  percent: number,
  original: { width: number; height: number },
): ResizeState {
  return {
    ...state,
    percent,
    width: atLeastOne((original.width * percent) / 100),
    height: atLeastOne((original.height * percent) / 100),
  };
}

/** Width and height 1 to the platform's maximum resize length; percent 1 to its maximum. */
export function resizeAccepted(
  state: ResizeState,
  original: { width: number; height: number },
  maxLength: number,
): boolean {
  return (
    isIntegerIn(state.width, 1, maxLength) &&
    isIntegerIn(state.height, 1, maxLength) &&
    isIntegerIn(state.percent, 1, maxResizePercent(original, maxLength))
  );
}

// ---------------------------------------------------------------- rotate, colour, crop, zoom

export const ROTATION_MIN = -180;
export const ROTATION_MAX = 180;

/** The rotation in 0..359 for a slider value plus the ±90 button turns. */
export const rotationSum = (slider: number, turns: number): number => (((slider + turns) % 360) + 360) % 360;

/** Rotation applies only if the rotation sum is not 0 or a flip is on. */
export const rotationApplies = (sum: number, flipH: boolean, flipV: boolean): boolean =>
  sum % 360 !== 0 || flipH || flipV;

/** Non-PNG images get a white fill where rotation uncovers the canvas; PNG keeps transparency. */
export const rotationFill = (mime: string): string | null => (mime === "image/png" ? null : "#ffffff");

export const COLOUR_MIN = -50;
export const COLOUR_MAX = 50;
export const SHARPEN_MIN = 0;
export const SHARPEN_MAX = 20;

export const colourAccepted = (brightness: number, contrast: number, sharpen: number): boolean =>
  isIntegerIn(brightness, COLOUR_MIN, COLOUR_MAX) &&
  isIntegerIn(contrast, COLOUR_MIN, COLOUR_MAX) &&
  isIntegerIn(sharpen, SHARPEN_MIN, SHARPEN_MAX);

/** Confirming neutral colour settings changes nothing, so it makes no new version. */
export const colourChanges = (brightness: number, contrast: number, sharpen: number): boolean =>
  brightness !== 0 || contrast !== 0 || sharpen !== 0;

export const CROP_ASPECTS = ["free", "16:9", "4:3", "3:2", "1:1", "2:3", "3:4", "9:16"] as const;
export type CropAspect = (typeof CROP_ASPECTS)[number];

/** cropperjs' aspectRatio: NaN is free. */
export function aspectRatioOf(aspect: CropAspect): number {
  if (aspect === "free") return Number.NaN;
  const [w, h] = aspect.split(":").map(Number) as [number, number];
  return w / h;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The crop box in whole pixels, inside the image. */
export function clampCropBox(box: Box, image: { width: number; height: number }): Box {
  const x = Math.min(Math.max(0, Math.round(box.x)), image.width - 1);
  const y = Math.min(Math.max(0, Math.round(box.y)), image.height - 1);
  return {
    x,
    y,
    width: Math.max(1, Math.min(Math.round(box.width), image.width - x)),
    height: Math.max(1, Math.min(Math.round(box.height), image.height - y)),
  };
}

/** Crop applies only if the crop box differs from the whole image. */
export const cropApplies = (box: Box, image: { width: number; height: number }): boolean => {
  const whole = clampCropBox(box, image);
  return !(whole.x === 0 && whole.y === 0 && whole.width === image.width && whole.height === image.height);
};

export const ZOOM_MIN = 1;
export const ZOOM_MAX = 300;

/** Zoom step: 1 below 10 %, then 5 for images of 3000 px or more (longer side), otherwise 10. */
export function zoomStep(percent: number, longerSide: number): number {
  if (percent < 10) return 1;
  return longerSide >= 3000 ? 5 : 10;
}

export function zoomIn(percent: number, longerSide: number): number {
  return Math.min(ZOOM_MAX, percent + zoomStep(percent, longerSide));
}

export function zoomOut(percent: number, longerSide: number): number {
  // Coming down to 10 the coarse step stops there; below it the step is 1.
  if (percent <= 10) return Math.max(ZOOM_MIN, percent - 1);
  return Math.max(10, percent - zoomStep(percent, longerSide));
}

export const clampZoom = (percent: number): number => Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, Math.round(percent)));

/**
 * A crop box made exact for its aspect ratio in full-resolution pixels: the
 * box comes from the working copy, whose rounding would leave 16:9 a few
 * pixels off on the original. Keeps the top-left corner and the width where
 * the image allows.
 */
export function exactAspect(box: Box, aspect: CropAspect, image: { width: number; height: number }): Box {
  const clamped = clampCropBox(box, image);
  if (aspect === "free") return clamped;
  const ratio = aspectRatioOf(aspect);
  let width = clamped.width;
  let height = Math.max(1, Math.round(width / ratio));
  if (clamped.y + height > image.height) {
    height = image.height - clamped.y;
    width = Math.max(1, Math.round(height * ratio));
  }
  return { ...clamped, width: Math.min(width, image.width - clamped.x), height };
}
