/**
 * Save: the session's operations re-applied to the full-resolution original
 * and encoded. It runs in a worker (save-worker.ts) so the page stays
 * responsive, and draws as few full-size copies as it can: the decoded
 * original is cropped or rotated straight from its bitmap, a crop and the
 * rotation after it are one drawing, and colour and watermark draw on the
 * pipeline's own canvas instead of a copy.
 */
import {
  applyOperations,
  cropAndRotate,
  type ImageResolver,
  type Operation,
  type Raster,
  type RasterSource,
  type Surface,
} from "./operations";

/** How long each step took, in milliseconds: decode, each operation, encode. */
export type SaveSteps = { step: string; ms: number }[];

export interface RenderOptions {
  mime: string;
  quality: number;
  resolve?: ImageResolver;
}

/** Watermark images (data or object URLs) decoded as bitmaps, which a worker can draw; cached by URL. */
export function bitmapResolver(): ImageResolver {
  const cache = new Map<string, Promise<ImageBitmap>>();
  return (url) => {
    let image = cache.get(url);
    if (!image) {
      image = fetch(url)
        .then((response) => response.blob())
        .then((blob) => createImageBitmap(blob, { imageOrientation: "from-image" }));
      cache.set(url, image);
    }
    return image;
  };
}

export function encodeCanvas(canvas: Surface, mime: string, quality: number): Promise<Blob> {
  if (typeof OffscreenCanvas !== "undefined" && canvas instanceof OffscreenCanvas) {
    return canvas.convertToBlob({ type: mime, quality });
  }
  return new Promise((resolve, reject) => {
    (canvas as HTMLCanvasElement).toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error("the image could not be encoded"))),
      mime,
      quality,
    );
  });
}

/** The original as the pipeline's first raster: its bitmap, or (without OffscreenCanvas) a canvas element of it. */
function originalRaster(bitmap: ImageBitmap): Raster<RasterSource> {
  const { width, height } = bitmap;
  if (typeof OffscreenCanvas !== "undefined") return { canvas: bitmap, width, height };
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  canvas.getContext("2d")?.drawImage(bitmap, 0, 0);
  return { canvas, width, height };
}

export async function renderFullResolution(
  image: Blob,
  ops: readonly Operation[],
  options: RenderOptions,
): Promise<{ blob: Blob; steps: SaveSteps }> {
  const steps: SaveSteps = [];
  let last = performance.now();
  const lap = (step: string) => {
    const now = performance.now();
    steps.push({ step, ms: Math.round(now - last) });
    last = now;
  };
  // Orientation as the <img> of the working copy applies it (EXIF).
  const bitmap = await createImageBitmap(image, { imageOrientation: "from-image" });
  lap("decode");
  let raster = originalRaster(bitmap);
  const apply = { maxSide: Number.POSITIVE_INFINITY, resolve: options.resolve ?? bitmapResolver(), inPlace: true };
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!;
    const next = ops[i + 1];
    if (op.kind === "crop" && next?.kind === "rotate") {
      raster = cropAndRotate(raster, op, next);
      lap("crop+rotate");
      i++;
    } else {
      raster = await applyOperations(raster, [op], apply);
      lap(op.kind);
    }
  }
  let canvas = raster.canvas;
  if (typeof ImageBitmap !== "undefined" && canvas instanceof ImageBitmap) {
    // Nothing drew it (no operation): encode the original's pixels.
    canvas = (
      await applyOperations(raster, [{ kind: "crop", x: 0, y: 0, width: raster.width, height: raster.height }], apply)
    ).canvas;
  }
  const blob = await encodeCanvas(canvas as Surface, options.mime, options.quality);
  lap("encode");
  bitmap.close();
  return { blob, steps };
}
