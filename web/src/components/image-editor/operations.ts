/**
 * The editor's operations: each a plain description, applied to a canvas.
 * Sizes and positions are in pixels of the full-resolution image the
 * operation applies to ("logical" pixels), so the same list works on the
 * small working copy the editor shows and, on save, on the original.
 */

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

export const WATERMARK_POSITIONS = [
  "upper-left",
  "upper-right",
  "lower-right",
  "lower-left",
  "center",
  "arbitrary",
] as const;
export type WatermarkPosition = (typeof WATERMARK_POSITIONS)[number];

export interface TextMark {
  type: "text";
  text: string;
  /** The box width; the text wraps inside it. */
  textWidth: number;
  fontSize: number;
  fontFamily: string;
  color: string;
  background: string;
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

/** A canvas and the full-resolution size it stands for (the canvas may be smaller: the working copy). */
export interface Raster {
  canvas: HTMLCanvasElement;
  width: number;
  height: number;
}

export const scaleOf = (raster: Raster): number => raster.canvas.width / raster.width;

function newCanvas(width: number, height: number): HTMLCanvasElement {
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(width));
  canvas.height = Math.max(1, Math.round(height));
  return canvas;
}

function context(canvas: HTMLCanvasElement, readBack = false): CanvasRenderingContext2D {
  const ctx = canvas.getContext("2d", readBack ? { willReadFrequently: true } : undefined);
  if (!ctx) throw new Error("canvas 2d context unavailable");
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = "high";
  return ctx;
}

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

/** Distance of a corner watermark from the edges: 2 % of the shorter side. */
export const watermarkMargin = (width: number, height: number): number => Math.round(Math.min(width, height) * 0.02);

/** The watermark box's top-left corner for a position. */
export function watermarkOrigin(
  position: WatermarkPosition,
  image: { width: number; height: number },
  box: { width: number; height: number },
  arbitrary: { x: number; y: number },
): { x: number; y: number } {
  const margin = watermarkMargin(image.width, image.height);
  switch (position) {
    case "upper-left":
      return { x: margin, y: margin };
    case "upper-right":
      return { x: image.width - box.width - margin, y: margin };
    case "lower-right":
      return { x: image.width - box.width - margin, y: image.height - box.height - margin };
    case "lower-left":
      return { x: margin, y: image.height - box.height - margin };
    case "center":
      return { x: Math.round((image.width - box.width) / 2), y: Math.round((image.height - box.height) / 2) };
    case "arbitrary":
      return { x: Math.round(arbitrary.x), y: Math.round(arbitrary.y) };
  }
}

export const textLineHeight = (fontSize: number): number => Math.round(fontSize * 1.25);
export const textPadding = (fontSize: number): number => Math.round(fontSize * 0.25);

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
  const canvas = newCanvas(width * scale, height * scale);
  context(canvas).drawImage(image, 0, 0, canvas.width, canvas.height);
  return { canvas, width, height };
}

// ---------------------------------------------------------------- applying

function crop(raster: Raster, op: CropOperation): Raster {
  const scale = scaleOf(raster);
  const canvas = newCanvas(op.width * scale, op.height * scale);
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

function rotate(raster: Raster, op: RotateOperation): Raster {
  const scale = scaleOf(raster);
  const size = rotatedSize(raster.width, raster.height, op.degrees);
  const turn = ((op.degrees % 360) + 360) % 360;
  const quarter = turn % 90 === 0;
  const canvas = quarter
    ? newCanvas(
        turn % 180 === 0 ? raster.canvas.width : raster.canvas.height,
        turn % 180 === 0 ? raster.canvas.height : raster.canvas.width,
      )
    : newCanvas(size.width * scale, size.height * scale);
  const ctx = context(canvas);
  if (op.fill) {
    ctx.fillStyle = op.fill;
    ctx.fillRect(0, 0, canvas.width, canvas.height);
  }
  // Quarter turns copy pixels one for one; only free angles resample.
  ctx.imageSmoothingEnabled = !quarter;
  ctx.translate(canvas.width / 2, canvas.height / 2);
  ctx.rotate((turn * Math.PI) / 180);
  ctx.scale(op.flipH ? -1 : 1, op.flipV ? -1 : 1);
  ctx.drawImage(raster.canvas, -raster.canvas.width / 2, -raster.canvas.height / 2);
  return { canvas, width: size.width, height: size.height };
}

/** Brightness and contrast as one linear map per channel, the same a·x + b that sharp's `linear` applies. */
export function colourLinear(brightness: number, contrast: number): { a: number; b: number } {
  const a = (100 + contrast) / 100;
  return { a, b: 128 * (1 - a) + (brightness * 255) / 100 };
}

/** The 3×3 sharpening kernel: the identity plus strength × the negative Laplacian. */
export function sharpenKernel(sharpen: number): number[] {
  const k = sharpen / 20;
  return [0, -k, 0, -k, 1 + 4 * k, -k, 0, -k, 0];
}

/** Applies the colour settings to RGBA pixels in place (alpha untouched). */
export function colourPixels(data: Uint8ClampedArray, width: number, height: number, op: ColourOperation): void {
  const { a, b } = colourLinear(op.brightness, op.contrast);
  if (a !== 1 || b !== 0) {
    for (let i = 0; i < data.length; i += 4) {
      data[i] = a * data[i]! + b;
      data[i + 1] = a * data[i + 1]! + b;
      data[i + 2] = a * data[i + 2]! + b;
    }
  }
  if (op.sharpen === 0) return;
  const k = op.sharpen / 20;
  const source = data.slice();
  const row = width * 4;
  for (let y = 0; y < height; y++) {
    const up = y === 0 ? 0 : -row;
    const down = y === height - 1 ? 0 : row;
    for (let x = 0; x < width; x++) {
      const left = x === 0 ? 0 : -4;
      const right = x === width - 1 ? 0 : 4;
      const i = y * row + x * 4;
      for (let c = 0; c < 3; c++) {
        const p = i + c;
        const centre = source[p]!;
        data[p] =
          centre + k * (4 * centre - source[p + up]! - source[p + down]! - source[p + left]! - source[p + right]!);
      }
    }
  }
}

function colour(raster: Raster, op: ColourOperation): Raster {
  const { width, height } = raster.canvas;
  const canvas = newCanvas(width, height);
  const ctx = context(canvas, true);
  ctx.drawImage(raster.canvas, 0, 0);
  const pixels = ctx.getImageData(0, 0, width, height);
  colourPixels(pixels.data, width, height, op);
  ctx.putImageData(pixels, 0, 0);
  return { canvas, width: raster.width, height: raster.height };
}

async function watermark(raster: Raster, op: WatermarkOperation, resolve: ImageResolver): Promise<Raster> {
  const scale = scaleOf(raster);
  const canvas = newCanvas(raster.canvas.width, raster.canvas.height);
  const ctx = context(canvas);
  ctx.drawImage(raster.canvas, 0, 0);
  ctx.globalAlpha = op.opacity / 100;
  const image = { width: raster.width, height: raster.height };
  if (op.mark.type === "image") {
    const box = imageBox(op.mark);
    const at = watermarkOrigin(op.position, image, box, op);
    const source = await resolve(op.mark.imageUrl);
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

function resize(raster: Raster, op: ResizeOperation, maxSide: number): Raster {
  const scale = Math.min(1, maxSide / Math.max(op.width, op.height));
  const canvas = newCanvas(op.width * scale, op.height * scale);
  const ctx = context(canvas);
  // Large reductions in one drawImage alias; halving steps first keeps fine detail smooth.
  let source: HTMLCanvasElement = raster.canvas;
  while (source.width / 2 >= canvas.width && source.height / 2 >= canvas.height) {
    const half = newCanvas(source.width / 2, source.height / 2);
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
}

export async function applyOperation(raster: Raster, op: Operation, options: ApplyOptions): Promise<Raster> {
  switch (op.kind) {
    case "crop":
      return crop(raster, op);
    case "rotate":
      return rotate(raster, op);
    case "colour":
      return colour(raster, op);
    case "watermark":
      return watermark(raster, op, options.resolve);
    case "resize":
      return resize(raster, op, options.maxSide);
  }
}

export async function applyOperations(
  raster: Raster,
  ops: readonly Operation[],
  options: ApplyOptions,
): Promise<Raster> {
  let result = raster;
  for (const op of ops) result = await applyOperation(result, op, options);
  return result;
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

export function encodeCanvas(canvas: HTMLCanvasElement, mime: string, quality: number): Promise<Blob> {
  return new Promise((resolve, reject) => {
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error("the image could not be encoded"))),
      mime,
      quality,
    );
  });
}

/** The type a save encodes to: PNG stays PNG (transparency), WebP stays WebP, everything else becomes JPEG. */
export function outputMime(inputMime: string): string {
  if (inputMime === "image/png" || inputMime === "image/webp") return inputMime;
  return "image/jpeg";
}

/** Save: the operations re-applied to the full-resolution original, then encoded. */
export async function renderFullResolution(
  sourceUrl: string,
  ops: readonly Operation[],
  options: { mime: string; quality: number; resolve?: ImageResolver },
): Promise<Blob> {
  const original = rasterOf(await loadImage(sourceUrl), Number.POSITIVE_INFINITY);
  const result = await applyOperations(original, ops, {
    maxSide: Number.POSITIVE_INFINITY,
    resolve: options.resolve ?? cachingResolver(),
  });
  return encodeCanvas(result.canvas, options.mime, options.quality);
}
