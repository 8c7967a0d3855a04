/**
 * The editor's operations: each a plain description, applied to a canvas.
 * Sizes and positions are in pixels of the full-resolution image the
 * operation applies to ("logical" pixels), so the same list works on the
 * small working copy the editor shows and, on save, on the original.
 */
import { type TextMark, textPadding, type WatermarkPosition, watermarkOrigin } from "@shared/watermark";
import { colourPixels } from "./colour-pixels";

export interface CropOperation {
  kind: "crop";
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface RotateOperation {
  kind: "rotate";
  /** Clockwise, any value; 90° multiples move pixels exactly. */
  degrees: number;
  flipH: boolean;
  flipV: boolean;
  /** What rotation uncovers: a colour (white for non-PNG) or null for transparent. */
  fill: string | null;
}

export interface ColourOperation {
  kind: "colour";
  /** -50..50: adds brightness × 2.55 to every channel. */
  brightness: number;
  /** -50..50: scales the distance from mid-grey by (100 + contrast) / 100. */
  contrast: number;
  /** 0..20: a 3×3 Laplacian sharpening of strength sharpen / 20. */
  sharpen: number;
}

export interface ImageMark {
  type: "image";
  /** A data or object URL of the watermark image. */
  imageUrl: string;
  imageWidth: number;
  imageHeight: number;
  /** 1..100 % of the watermark image's own size. */
  sizePercent: number;
}

export interface WatermarkOperation {
  kind: "watermark";
  mark: TextMark | ImageMark;
  position: WatermarkPosition;
  /** 1..100. */
  opacity: number;
  /** The box's top-left corner for the arbitrary position. */
  x: number;
  y: number;
}

export interface ResizeOperation {
  kind: "resize";
  width: number;
  height: number;
}

export type Operation = CropOperation | RotateOperation | ColourOperation | WatermarkOperation | ResizeOperation;

/**
 * What an operation draws on: a canvas element on the page (the working copy, the previews), an
 * OffscreenCanvas in the save worker.
 */
export type Surface = HTMLCanvasElement | OffscreenCanvas;
/** What an operation reads: a surface, or the decoded original on save (crop, rotate and resize draw from it directly). */
export type RasterSource = Surface | ImageBitmap;

/** A canvas and the full-resolution size it stands for (the canvas may be smaller: the working copy). */
export interface Raster<C extends RasterSource = HTMLCanvasElement> {
  canvas: C;
  width: number;
  height: number;
}

/** An operation's result is a canvas of the input's kind: an element from an element, else an OffscreenCanvas. */
type Result<C extends RasterSource> = C extends HTMLCanvasElement ? HTMLCanvasElement : Surface;

export const scaleOf = (raster: Raster<RasterSource>): number => raster.canvas.width / raster.width;

function pageCanvas(width: number, height: number): HTMLCanvasElement {
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(width));
  canvas.height = Math.max(1, Math.round(height));
  return canvas;
}

function newCanvas<C extends RasterSource>(like: C, width: number, height: number): Result<C> {
  if (typeof HTMLCanvasElement !== "undefined" && like instanceof HTMLCanvasElement) {
    return pageCanvas(width, height) as Result<C>;
  }
  return new OffscreenCanvas(Math.max(1, Math.round(width)), Math.max(1, Math.round(height))) as Result<C>;
}

type Context = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

function context(canvas: Surface, readBack = false): Context {
  // Both kinds answer getContext("2d") with the same drawing API; one call signature keeps the types simple.
  const ctx = (canvas as OffscreenCanvas).getContext("2d", readBack ? { willReadFrequently: true } : undefined);
  if (!ctx) throw new Error("canvas 2d context unavailable");
  // A canvas drawn on again (save's in-place steps) keeps its context: start from a clean state.
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.globalAlpha = 1;
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = "high";
  return ctx;
}

export { colourLinear, colourPixels, sharpenKernel } from "./colour-pixels";

// ---------------------------------------------------------------- sizes

/** The full-resolution size after a rotation: exact for quarter turns, the bounding box otherwise. */
export function rotatedSize(width: number, height: number, degrees: number): { width: number; height: number } {
  const turn = ((degrees % 360) + 360) % 360;
  if (turn === 0 || turn === 180) return { width, height };
  if (turn === 90 || turn === 270) return { width: height, height: width };
  const radians = (turn * Math.PI) / 180;
  const cos = Math.abs(Math.cos(radians));
  const sin = Math.abs(Math.sin(radians));
  return { width: Math.round(width * cos + height * sin), height: Math.round(width * sin + height * cos) };
}

// ---------------------------------------------------------------- watermark placement

export const textLineHeight = (fontSize: number): number => Math.round(fontSize * 1.25);

/** CSS font shorthand; the family falls back to the browser's sans-serif. */
export const fontOf = (fontSize: number, family: string): string => `${fontSize}px "${family}", sans-serif`;

/** Wraps text to a width, by characters (captions mix Chinese, which has no spaces, and Latin). */
export function wrapText(text: string, maxWidth: number, measure: (line: string) => number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    for (const char of paragraph) {
      if (line !== "" && measure(line + char) > maxWidth) {
        lines.push(line);
        line = char;
      } else line += char;
    }
    lines.push(line);
  }
  return lines;
}

/** The text watermark's box in full-resolution pixels. */
export function textBox(
  mark: TextMark,
  measure: (line: string) => number,
): { width: number; height: number; lines: string[] } {
  const padding = textPadding(mark.fontSize);
  const lines = wrapText(mark.text, Math.max(1, mark.textWidth - 2 * padding), measure);
  return { width: mark.textWidth, height: lines.length * textLineHeight(mark.fontSize) + 2 * padding, lines };
}

export const imageBox = (mark: ImageMark): { width: number; height: number } => ({
  width: Math.max(1, Math.round((mark.imageWidth * mark.sizePercent) / 100)),
  height: Math.max(1, Math.round((mark.imageHeight * mark.sizePercent) / 100)),
});

// ---------------------------------------------------------------- loading

export type ImageResolver = (url: string) => Promise<CanvasImageSource>;

/** Decodes an image URL (the browser applies EXIF orientation when drawing it). */
export async function loadImage(url: string): Promise<HTMLImageElement> {
  const image = new Image();
  image.decoding = "async";
  image.src = url;
  await image.decode();
  return image;
}

/** A raster of an image, at most maxSide pixels on its longer side (Infinity: full resolution). */
export function rasterOf(image: HTMLImageElement, maxSide: number): Raster {
  const width = image.naturalWidth;
  const height = image.naturalHeight;
  const scale = Math.min(1, maxSide / Math.max(width, height));
  const canvas = pageCanvas(width * scale, height * scale);
  context(canvas).drawImage(image, 0, 0, canvas.width, canvas.height);
  return { canvas, width, height };
}

// ---------------------------------------------------------------- applying

function crop<C extends RasterSource>(raster: Raster<C>, op: CropOperation): Raster<Result<C>> {
  const scale = scaleOf(raster);
  const canvas = newCanvas(raster.canvas, op.width * scale, op.height * scale);
  context(canvas).drawImage(
    raster.canvas,
    op.x * scale,
    op.y * scale,
    op.width * scale,
    op.height * scale,
    0,
    0,
    canvas.width,
    canvas.height,
  );
  return { canvas, width: op.width, height: op.height };
}

/** A rectangle of a canvas, in the canvas's own pixels. */
interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Rotates a region of a canvas that stands for an image of the given full-resolution size. */
function rotateRegion<C extends RasterSource>(
  source: C,
  region: Region,
  size: { width: number; height: number },
  op: RotateOperation,
): Raster<Result<C>> {
  const scale = region.width / size.width;
  const rotated = rotatedSize(size.width, size.height, op.degrees);
  const turn = ((op.degrees % 360) + 360) % 360;
  const quarter = turn % 90 === 0;
  const canvas = quarter
    ? newCanvas(
        source,
        turn % 180 === 0 ? region.width : region.height,
        turn % 180 === 0 ? region.height : region.width,
      )
    : newCanvas(source, rotated.width * scale, rotated.height * scale);
  const ctx = context(canvas);
  // Quarter turns uncover nothing (as sharp, which ignores the background for them); free angles fill the corners.
  if (op.fill && !quarter) {
    ctx.fillStyle = op.fill;
    ctx.fillRect(0, 0, canvas.width, canvas.height);
  }
  // Quarter turns copy pixels one for one; only free angles resample.
  ctx.imageSmoothingEnabled = !quarter;
  ctx.translate(canvas.width / 2, canvas.height / 2);
  ctx.rotate((turn * Math.PI) / 180);
  ctx.scale(op.flipH ? -1 : 1, op.flipV ? -1 : 1);
  const { x, y, width, height } = region;
  ctx.drawImage(source, x, y, width, height, -width / 2, -height / 2, width, height);
  return { canvas, width: rotated.width, height: rotated.height };
}

function rotate<C extends RasterSource>(raster: Raster<C>, op: RotateOperation): Raster<Result<C>> {
  const { canvas } = raster;
  return rotateRegion(canvas, { x: 0, y: 0, width: canvas.width, height: canvas.height }, raster, op);
}

/** A crop and the rotation after it in one drawing, as save does them: one full-size copy fewer. */
export function cropAndRotate<C extends RasterSource>(
  raster: Raster<C>,
  crop: CropOperation,
  op: RotateOperation,
): Raster<Result<C>> {
  const scale = scaleOf(raster);
  const region = { x: crop.x * scale, y: crop.y * scale, width: crop.width * scale, height: crop.height * scale };
  return rotateRegion(raster.canvas, region, crop, op);
}

/** The raster's own canvas when the caller lets the operation draw on it, else a copy to draw on. */
function target<C extends RasterSource>(raster: Raster<C>, inPlace: boolean): Result<C> {
  const source = raster.canvas;
  if (inPlace && !(typeof ImageBitmap !== "undefined" && source instanceof ImageBitmap)) return source as Result<C>;
  const canvas = newCanvas(source, source.width, source.height);
  context(canvas).drawImage(source, 0, 0);
  return canvas;
}

function colour<C extends RasterSource>(raster: Raster<C>, op: ColourOperation, inPlace: boolean): Raster<Result<C>> {
  const canvas = target(raster, inPlace);
  const { width, height } = canvas;
  const ctx = context(canvas, true);
  const pixels = ctx.getImageData(0, 0, width, height);
  colourPixels(pixels.data, width, height, op);
  ctx.putImageData(pixels, 0, 0);
  return { canvas, width: raster.width, height: raster.height };
}

async function watermark<C extends RasterSource>(
  raster: Raster<C>,
  op: WatermarkOperation,
  options: ApplyOptions,
): Promise<Raster<Result<C>>> {
  const scale = scaleOf(raster);
  const canvas = target(raster, options.inPlace ?? false);
  const ctx = context(canvas);
  ctx.globalAlpha = op.opacity / 100;
  const image = { width: raster.width, height: raster.height };
  if (op.mark.type === "image") {
    const box = imageBox(op.mark);
    const at = watermarkOrigin(op.position, image, box, op);
    const source = await options.resolve(op.mark.imageUrl);
    ctx.drawImage(source, at.x * scale, at.y * scale, box.width * scale, box.height * scale);
  } else {
    const mark = op.mark;
    // Measured at full-resolution size so the wrapping is the same at every scale.
    ctx.font = fontOf(mark.fontSize, mark.fontFamily);
    const box = textBox(mark, (line) => ctx.measureText(line).width);
    const at = watermarkOrigin(op.position, image, box, op);
    ctx.fillStyle = mark.background;
    ctx.fillRect(at.x * scale, at.y * scale, box.width * scale, box.height * scale);
    ctx.font = fontOf(mark.fontSize * scale, mark.fontFamily);
    ctx.fillStyle = mark.color;
    ctx.textBaseline = "middle";
    const padding = textPadding(mark.fontSize);
    const lineHeight = textLineHeight(mark.fontSize);
    box.lines.forEach((line, index) => {
      ctx.fillText(line, (at.x + padding) * scale, (at.y + padding + lineHeight * (index + 0.5)) * scale);
    });
  }
  return { canvas, width: raster.width, height: raster.height };
}

function resize<C extends RasterSource>(raster: Raster<C>, op: ResizeOperation, maxSide: number): Raster<Result<C>> {
  const scale = Math.min(1, maxSide / Math.max(op.width, op.height));
  const canvas = newCanvas(raster.canvas, op.width * scale, op.height * scale);
  const ctx = context(canvas);
  // Large reductions in one drawImage alias; halving steps first keeps fine detail smooth.
  let source: RasterSource = raster.canvas;
  while (source.width / 2 >= canvas.width && source.height / 2 >= canvas.height) {
    const half = newCanvas(raster.canvas, source.width / 2, source.height / 2);
    context(half).drawImage(source, 0, 0, half.width, half.height);
    source = half;
  }
  ctx.drawImage(source, 0, 0, canvas.width, canvas.height);
  return { canvas, width: op.width, height: op.height };
}

export interface ApplyOptions {
  /** The working copy's longest side; Infinity on save. */
  maxSide: number;
  resolve: ImageResolver;
  /**
   * The raster's canvas belongs to this call, so colour and watermark may draw on it instead of on a
   * copy (save: each step's canvas is the pipeline's own). Never for the working copies the session keeps.
   */
  inPlace?: boolean;
}

export async function applyOperation<C extends RasterSource>(
  raster: Raster<C>,
  op: Operation,
  options: ApplyOptions,
): Promise<Raster<Result<C>>> {
  switch (op.kind) {
    case "crop":
      return crop(raster, op);
    case "rotate":
      return rotate(raster, op);
    case "colour":
      return colour(raster, op, options.inPlace ?? false);
    case "watermark":
      return watermark(raster, op, options);
    case "resize":
      return resize(raster, op, options.maxSide);
  }
}

export async function applyOperations<C extends RasterSource>(
  raster: Raster<C>,
  ops: readonly Operation[],
  options: ApplyOptions,
): Promise<Raster<Result<C>>> {
  let result: Raster<RasterSource> = raster;
  for (const op of ops) result = await applyOperation(result, op, options);
  // With no operation the input comes back: the caller's own canvas.
  return result as Raster<Result<C>>;
}

/** Caches decoded watermark images by URL. */
export function cachingResolver(): ImageResolver {
  const cache = new Map<string, Promise<HTMLImageElement>>();
  return (url) => {
    let image = cache.get(url);
    if (!image) {
      image = loadImage(url);
      cache.set(url, image);
    }
    return image;
  };
}

/** The type a save encodes to: PNG stays PNG (transparency), WebP stays WebP, everything else becomes JPEG. */
export function outputMime(inputMime: string): string {
  if (inputMime === "image/png" || inputMime === "image/webp") return inputMime;
  return "image/jpeg";
}
