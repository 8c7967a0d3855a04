/**
 * The unconfirmed parameters of each mode, and the operation each would
 * make. Leaving a mode throws its parameters away (spec section 4).
 */
import { DEFAULT_WATERMARK, type WatermarkSettings } from "@shared/watermark";
import type { Operation } from "./operations";
import {
  type CropAspect,
  colourChanges,
  fontSizeAccepted,
  imageSizeAccepted,
  opacityAccepted,
  positionAccepted,
  type ResizeState,
  rotationApplies,
  rotationFill,
  rotationSum,
  watermarkTextProblem,
} from "./rules";

export interface RotateParams {
  slider: number;
  /** The ±90 button turns, added to the slider. */
  turns: number;
  flipH: boolean;
  flipV: boolean;
}

export interface ColourParams {
  brightness: number;
  contrast: number;
  sharpen: number;
}

/** The watermark mode's settings (any font name the editor was handed) and the image of an image mark. */
export interface WatermarkParams extends Omit<WatermarkSettings, "fontFamily"> {
  fontFamily: string;
  imageUrl: string | null;
  imageWidth: number;
  imageHeight: number;
  imageType: string;
}

export const initialRotate: RotateParams = { slider: 0, turns: 0, flipH: false, flipV: false };
export const initialColour: ColourParams = { brightness: 0, contrast: 0, sharpen: 0 };
export const initialCropAspect: CropAspect = "free";

/** Spec section 9: image type, lower-right, opacity 100, size 100, 30 px white text on black, the first font. */
export const initialWatermark: WatermarkParams = {
  ...DEFAULT_WATERMARK,
  imageUrl: null,
  imageWidth: 0,
  imageHeight: 0,
  imageType: "",
};

export function rotateOperation(params: RotateParams, mime: string): Operation | null {
  const degrees = rotationSum(params.slider, params.turns);
  if (!rotationApplies(degrees, params.flipH, params.flipV)) return null;
  return { kind: "rotate", degrees, flipH: params.flipH, flipV: params.flipV, fill: rotationFill(mime) };
}

export function colourOperation(params: ColourParams): Operation | null {
  if (!colourChanges(params.brightness, params.contrast, params.sharpen)) return null;
  return { kind: "colour", ...params };
}

/** The watermark operation, with the font size given (the preview caps it). Null when an image mark has no image yet. */
export function watermarkOperation(params: WatermarkParams, fontSize = params.fontSize): Operation | null {
  const placement = { position: params.position, opacity: params.opacity, x: params.x, y: params.y };
  if (params.type === 1) {
    if (!params.imageUrl) return null;
    return {
      kind: "watermark",
      ...placement,
      mark: {
        type: "image",
        imageUrl: params.imageUrl,
        imageWidth: params.imageWidth,
        imageHeight: params.imageHeight,
        sizePercent: params.sizePercent,
      },
    };
  }
  return {
    kind: "watermark",
    ...placement,
    mark: {
      type: "text",
      text: params.text,
      textWidth: params.textWidth,
      fontSize,
      fontFamily: params.fontFamily,
      color: params.color,
      background: params.background,
    },
  };
}

export function resizeOperation(params: ResizeState, current: { width: number; height: number }): Operation | null {
  if (params.width === current.width && params.height === current.height) return null;
  return { kind: "resize", width: params.width, height: params.height };
}

/** The i18n keys of the watermark warnings (the spec's messages, verbatim in en-US). */
export const WATERMARK_WARNINGS = {
  required: "imageEditor.watermark.required",
  tooLong: "imageEditor.watermark.tooLong",
  notImage: "imageEditor.notImage",
} as const;

/**
 * Whether a watermark may be confirmed: "ok", a warning to show, or "silent"
 * for the refusals the spec makes without a message (font size, opacity,
 * image size, arbitrary position out of the image).
 */
export function checkWatermark(
  params: WatermarkParams,
  image: { width: number; height: number },
): "ok" | "silent" | keyof typeof WATERMARK_WARNINGS {
  if (params.type === 1) {
    if (!params.imageUrl) return "notImage";
    if (!imageSizeAccepted(params.sizePercent)) return "silent";
  } else {
    const problem = watermarkTextProblem(params.text);
    if (problem) return problem;
    if (!fontSizeAccepted(params.fontSize)) return "silent";
  }
  if (!opacityAccepted(params.opacity)) return "silent";
  if (params.position === "arbitrary" && !positionAccepted(params.x, params.y, image.width, image.height))
    return "silent";
  return "ok";
}
