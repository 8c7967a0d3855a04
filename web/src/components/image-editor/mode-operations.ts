/**
 * What a mode's parameters make of the current image, free of React and the
 * canvas: the live preview while they change, what confirming them does, and
 * whether the platform's limits allow the mode at all (spec sections 4, 5, 9).
 */
import type { Operation } from "./operations";
import {
  checkWatermark,
  colourOperation,
  resizeOperation,
  rotateOperation,
  WATERMARK_WARNINGS,
  watermarkOperation,
} from "./params";
import {
  type Box,
  cropApplies,
  exactAspect,
  featureAllowed,
  type LimitedFeature,
  previewFontSize,
  resizeAccepted,
} from "./rules";
import { MODES, type Mode, type ModeParams, type SessionState } from "./session";

/** The five editing modes, numbered as the spec numbers them. */
export type EditMode = 1 | 2 | 3 | 4 | 5;
export const EDIT_MODES: readonly EditMode[] = [1, 2, 3, 4, 5];
/** Each mode's name: its i18n key (`imageEditor.mode.<name>`) and its test id (`mode-<name>`). */
export const MODE_NAMES = { 1: "crop", 2: "rotate", 3: "colour", 4: "watermark", 5: "resize" } as const;
const MODE_FEATURES: Record<EditMode, LimitedFeature> = MODE_NAMES;

export const isEditMode = (mode: number): mode is EditMode => mode >= 1 && mode <= 5;

/** The unconfirmed change drawn over the current image while a mode's parameters move; null shows the image as it is. */
export function previewOperation(
  mode: Mode,
  params: Pick<ModeParams, "rotate" | "colour" | "watermark">,
  mime: string,
): Operation | null {
  switch (mode) {
    case MODES.rotate:
      return rotateOperation(params.rotate, mime);
    case MODES.colour:
      return colourOperation(params.colour);
    case MODES.watermark:
      return watermarkOperation(params.watermark, previewFontSize(params.watermark.fontSize));
    default:
      return null;
  }
}

/**
 * What confirming the mode does: apply an operation; leave the mode because
 * the parameters change nothing (a rotation sum of 0, neutral colours, the
 * whole image as crop box); refuse silently; or refuse with a warning.
 */
export type ConfirmStep =
  | { kind: "apply"; operation: Operation }
  | { kind: "leave" }
  | { kind: "refuse" }
  | { kind: "warn"; messageKey: (typeof WATERMARK_WARNINGS)[keyof typeof WATERMARK_WARNINGS] };

const applyOrLeave = (operation: Operation | null): ConfirmStep =>
  operation ? { kind: "apply", operation } : { kind: "leave" };

/**
 * The step confirm takes in the session's mode. `cropBox` is the crop mode's
 * box in pixels of the shown working copy, `shownScale` the working copy's
 * pixels per full-resolution pixel.
 */
export function confirmStep(
  state: SessionState,
  context: { mime: string; cropBox?: Box | null; shownScale?: number },
): ConfirmStep {
  const { current, params } = state;
  if (!current) return { kind: "refuse" };
  switch (state.mode) {
    case MODES.crop: {
      const box = context.cropBox;
      const scale = context.shownScale;
      if (!box || !scale) return { kind: "refuse" };
      const logical = exactAspect(
        { x: box.x / scale, y: box.y / scale, width: box.width / scale, height: box.height / scale },
        params.aspect,
        current,
      );
      return applyOrLeave(cropApplies(logical, current) ? { kind: "crop", ...logical } : null);
    }
    case MODES.rotate:
      return applyOrLeave(rotateOperation(params.rotate, context.mime));
    case MODES.colour:
      return applyOrLeave(colourOperation(params.colour));
    case MODES.watermark: {
      const verdict = checkWatermark(params.watermark, current);
      if (verdict === "silent") return { kind: "refuse" };
      if (verdict !== "ok") return { kind: "warn", messageKey: WATERMARK_WARNINGS[verdict] };
      return applyOrLeave(watermarkOperation(params.watermark));
    }
    case MODES.resize:
      if (!resizeAccepted(params.resize, current, state.limits.maxResizeLength)) return { kind: "refuse" };
      return applyOrLeave(resizeOperation(params.resize, current));
    default:
      return { kind: "refuse" };
  }
}

/** Whether the platform's limits allow a mode on the current image of `bytes` bytes (spec section 9). */
export function modeAllowed(state: SessionState, mode: EditMode, bytes: number | null): boolean {
  const { current } = state;
  if (!current || bytes === null) return false;
  return featureAllowed(state.limits, MODE_FEATURES[mode], { width: current.width, height: current.height, bytes });
}
