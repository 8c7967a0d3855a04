/**
 * The cover cropper's arithmetic (spec section 2, "Cover cropper screen";
 * section 5, "Cover crop is fixed at 16:9"; section 9, the cropper's minimum
 * container and wheel zoom). Pure, so it is tested without a browser.
 */

export interface Ratio {
  width: number;
  height: number;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const COVER_RATIO: Ratio = { width: 16, height: 9 };
/** What the server's `ratio` field takes, and what the caption shows. */
export const COVER_RATIO_TEXT = `${COVER_RATIO.width}:${COVER_RATIO.height}`;
/** Spec section 9. */
export const CROPPER_MIN_CONTAINER = { width: 200, height: 100 } as const;
export const CROPPER_WHEEL_ZOOM_RATIO = 0.1;
/** A cover wider than this is scaled down: a 4K frame makes a base64 body far above what a cover needs. */
export const COVER_MAX_WIDTH = 1920;

/** The largest box of `ratio` inside a `width`×`height` image, centred: where the crop box starts. */
export function largestBox(width: number, height: number, ratio: Ratio = COVER_RATIO): Rect {
  if (width <= 0 || height <= 0) return { x: 0, y: 0, width: 0, height: 0 };
  const boxWidth = Math.min(width, (height * ratio.width) / ratio.height);
  const boxHeight = (boxWidth * ratio.height) / ratio.width;
  return { x: (width - boxWidth) / 2, y: (height - boxHeight) / 2, width: boxWidth, height: boxHeight };
}

/**
 * The crop box in whole image pixels, kept inside the image. cropperjs reports
 * fractions, and a box dragged against an edge can poke out by a rounding error.
 */
export function clampToImage(box: Rect, imageWidth: number, imageHeight: number): Rect {
  const x = Math.min(Math.max(0, Math.round(box.x)), Math.max(0, imageWidth - 1));
  const y = Math.min(Math.max(0, Math.round(box.y)), Math.max(0, imageHeight - 1));
  const width = Math.max(1, Math.min(Math.round(box.width), imageWidth - x));
  const height = Math.max(1, Math.min(Math.round(box.height), imageHeight - y));
  return { x, y, width, height };
}

/** Whether a crop box has a size at all (a cropper measured in a collapsed container reports 0 or NaN). */
export function usableCrop(box: Rect | null | undefined): box is Rect {
  return box != null && [box.x, box.y, box.width, box.height].every(Number.isFinite) && box.width > 0 && box.height > 0;
}

/**
 * The size of the cover made from a crop box: exactly the ratio (a multiple of
 * 16×9, so the server's ratio check always passes), as large as the box allows
 * without upscaling, at most `maxWidth` wide, at least one step (16×9).
 */
export function coverSize(box: Pick<Rect, "width" | "height">, ratio: Ratio = COVER_RATIO, maxWidth = COVER_MAX_WIDTH) {
  const steps = Math.floor(Math.min(box.width / ratio.width, box.height / ratio.height, maxWidth / ratio.width));
  const step = Math.max(1, steps);
  return { width: step * ratio.width, height: step * ratio.height };
}

/** Whether `width`×`height` has the ratio within a pixel of rounding (the server's rule). */
export function hasRatio(width: number, height: number, ratio: Ratio = COVER_RATIO): boolean {
  return (
    Math.abs(height - (width * ratio.height) / ratio.width) <= 1 ||
    Math.abs(width - (height * ratio.width) / ratio.height) <= 1
  );
}
