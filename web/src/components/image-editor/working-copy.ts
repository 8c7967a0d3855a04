/**
 * The working copies behind the session's image URLs: each confirmed version
 * is kept as a canvas sized for the screen (and a smaller one for the live
 * previews), so edits stay quick on a 24-megapixel photo; save re-applies
 * the operations to the full-resolution original.
 */
import { type Raster, rasterOf } from "./operations";

/** The longer side of the working copy: the screen's pixels, at least 1600 and at most 4096. */
export function workingMaxSide(
  screenSize: { width: number; height: number } = window.screen,
  pixelRatio = window.devicePixelRatio || 1,
): number {
  return Math.min(4096, Math.max(1600, Math.round(Math.max(screenSize.width, screenSize.height) * pixelRatio)));
}

/** Live previews (rotate, colour, watermark) redraw on every slider move, so they work on at most this many pixels a side. */
export const PREVIEW_MAX_SIDE = 1200;

export function downscale(raster: Raster, maxSide: number): Raster {
  const scale = Math.min(1, maxSide / Math.max(raster.canvas.width, raster.canvas.height));
  if (scale === 1) return raster;
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(raster.canvas.width * scale));
  canvas.height = Math.max(1, Math.round(raster.canvas.height * scale));
  const ctx = canvas.getContext("2d");
  if (!ctx) throw new Error("canvas 2d context unavailable");
  ctx.imageSmoothingQuality = "high";
  ctx.drawImage(raster.canvas, 0, 0, canvas.width, canvas.height);
  return { canvas, width: raster.width, height: raster.height };
}

export interface WorkingCopy {
  raster: Raster;
  preview: Raster;
}

/** The working copies by the session's URL; the object URLs are revoked when the editor goes. */
export class WorkingCopies {
  private readonly copies = new Map<string, WorkingCopy>();
  private readonly ownedUrls = new Set<string>();

  add(url: string, raster: Raster, owned: boolean): void {
    this.copies.set(url, { raster, preview: downscale(raster, PREVIEW_MAX_SIDE) });
    if (owned) this.ownedUrls.add(url);
  }

  get(url: string): WorkingCopy | undefined {
    return this.copies.get(url);
  }

  /** An object URL for a new version's canvas (PNG, lossless, so later previews start from the same pixels). */
  async register(raster: Raster): Promise<string> {
    const blob = await new Promise<Blob>((resolve, reject) =>
      raster.canvas.toBlob((result) => (result ? resolve(result) : reject(new Error("encode failed"))), "image/png"),
    );
    const url = URL.createObjectURL(blob);
    this.add(url, raster, true);
    return url;
  }

  dispose(): void {
    for (const url of this.ownedUrls) URL.revokeObjectURL(url);
    this.ownedUrls.clear();
    this.copies.clear();
  }
}

export { rasterOf };
