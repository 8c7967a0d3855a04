import fs from "node:fs/promises";
import path from "node:path";
import sharp, { type Metadata, type Sharp, type SharpOptions } from "sharp";
import { decodeHeif } from "./heif-decoder.js";
import { errorMessage, MediaError } from "./media-error.js";
import { hashOfImage } from "./phash.js";

/** Input formats (as sharp names them) that we decode; everything else is refused before decoding. */
export const ALLOWED_IMAGE_FORMATS = ["jpeg", "png", "webp", "gif", "tiff", "heif", "avif"] as const;
export type ImageFormat = (typeof ALLOWED_IMAGE_FORMATS)[number];

/**
 * Loaders libvips must never run on an upload, blocked for the whole process
 * (sharp is used nowhere else): SVG and PDF can reference other files and
 * carry scripts, ImageMagick is a large attack surface, and the rest are
 * scientific or raw formats no newsroom uploads. Blocked loaders fail as
 * "unsupported image format" even when only the header is read.
 */
sharp.block({
  operation: [
    "VipsForeignLoadSvg",
    "VipsForeignLoadPdf",
    "VipsForeignLoadMagick",
    "VipsForeignLoadOpenslide",
    "VipsForeignLoadFits",
    "VipsForeignLoadMatrix",
    "VipsForeignLoadCsv",
    "VipsForeignLoadVips",
    "VipsForeignLoadAnalyze",
    "VipsForeignLoadRad",
    "VipsForeignLoadPpm",
  ],
});

/** libvips' own default: 0x3FFF x 0x3FFF pixels, about 268 MP. */
export const DEFAULT_MAX_PIXELS = 268_402_689;

export interface ImageSafetyOptions {
  /** Refuse images with more pixels than this (a pixel flood), read from the header before any decoding. */
  maxPixels?: number;
  /** libvips stops a decode or encode that runs longer than this (default 120 s). */
  timeoutSeconds?: number;
}

export interface ImageDerivativeOptions extends ImageSafetyOptions {
  /** Edge of the square, centre-cropped grid thumbnail. */
  thumbnailSize?: number;
  /** Long edge of the preview; smaller originals are not enlarged. */
  previewLongEdge?: number;
  jpegQuality?: number;
  webpQuality?: number;
}

export interface ImageRendition {
  kind: "thumbnail" | "preview";
  format: "webp" | "jpeg";
  path: string;
  width: number;
  height: number;
  sizeBytes: number;
}

export interface ImageDerivatives {
  /** Size of the original as shown, after its orientation is applied. */
  width: number;
  height: number;
  format: ImageFormat;
  hasAlpha: boolean;
  renditions: ImageRendition[];
  /** The perceptual hash (phash.ts), taken from the same decode as the renditions. */
  perceptualHash: string;
}

export interface OpenedImage {
  /** A pipeline that decodes the first page or frame, upright (EXIF orientation applied). */
  pipeline: Sharp;
  format: ImageFormat;
  width: number;
  height: number;
  hasAlpha: boolean;
}

/**
 * Decoding policy. `failOn: "error"` makes libvips stop on truncated files
 * and corrupt image data instead of returning grey or half-drawn pixels;
 * mere warnings (extraneous bytes before a marker, odd but readable metadata)
 * pass, because cameras write them and the picture is fine. Metadata
 * problems never stop a render: extractImageMetadata reports them apart.
 */
function decoderOptions(maxPixels: number): SharpOptions {
  return { limitInputPixels: maxPixels, failOn: "error", sequentialRead: true, animated: false };
}

export function toMediaError(error: unknown): MediaError {
  if (error instanceof MediaError) return error;
  const message = errorMessage(error);
  if (/^timeout/i.test(message))
    return new MediaError("timeout", "decoding the image took longer than allowed", { cause: error });
  if (/pixel limit/i.test(message))
    return new MediaError("too_large", "the image has more pixels than allowed", { cause: error });
  if (/unsupported image format/i.test(message))
    return new MediaError("unsupported_format", "the file is not an image we can read", { cause: error });
  const detail = message
    .split("\n")[0]
    ?.replace(/^.*?: /, "")
    .slice(0, 200);
  return new MediaError("corrupt", `the image is damaged or truncated (${detail})`, { cause: error });
}

export function allowedFormat(metadata: Metadata): ImageFormat {
  const format = metadata.format as string;
  if (format === "heif" && metadata.compression === "av1") return "avif";
  if ((ALLOWED_IMAGE_FORMATS as readonly string[]).includes(format)) return format as ImageFormat;
  throw new MediaError(
    "unsupported_format",
    format === "svg"
      ? "SVG images are not accepted: they can carry scripts and links to other files"
      : `the image format "${format ?? "unknown"}" is not accepted`,
  );
}

/**
 * Reads the header, checks the format against the allow-list and the pixel
 * count against the limit, and returns a decoding pipeline. Nothing is decoded
 * until the pipeline runs.
 */
export async function openImage(input: string, options: ImageSafetyOptions = {}): Promise<OpenedImage> {
  const maxPixels = options.maxPixels ?? DEFAULT_MAX_PIXELS;
  const timeout = { seconds: options.timeoutSeconds ?? 120 };
  let metadata: Metadata;
  try {
    metadata = await sharp(input, decoderOptions(maxPixels)).metadata();
  } catch (error) {
    throw toMediaError(error);
  }
  const format = allowedFormat(metadata);
  const width = metadata.width ?? 0;
  const height = metadata.height ?? 0;
  if (width <= 0 || height <= 0) throw new MediaError("corrupt", "the image header gives no size");
  if (width * height > maxPixels)
    throw new MediaError("too_large", `the image is ${width}x${height} pixels, more than the allowed ${maxPixels}`);

  if (format === "heif" && metadata.compression === "hevc") {
    const decoded = await decodeHeif(await fs.readFile(input), maxPixels, timeout.seconds * 1000);
    const raw = { width: decoded.width, height: decoded.height, channels: 4 as const };
    const pipeline = sharp(decoded.pixels, { raw, limitInputPixels: maxPixels }).timeout(timeout);
    return {
      pipeline: decoded.hasAlpha ? pipeline : pipeline.removeAlpha(),
      format,
      width: decoded.width,
      height: decoded.height,
      hasAlpha: decoded.hasAlpha,
    };
  }
  const turned = (metadata.orientation ?? 1) >= 5;
  return {
    pipeline: sharp(input, decoderOptions(maxPixels)).timeout(timeout).rotate(),
    format,
    width: turned ? height : width,
    height: turned ? width : height,
    hasAlpha: metadata.hasAlpha ?? false,
  };
}

async function write(
  image: Sharp,
  kind: ImageRendition["kind"],
  format: ImageRendition["format"],
  outDir: string,
  quality: { jpeg: number; webp: number },
): Promise<ImageRendition> {
  const file = path.join(outDir, `${kind}.${format === "jpeg" ? "jpg" : "webp"}`);
  const encoded =
    format === "jpeg"
      ? image.flatten({ background: "#ffffff" }).jpeg({ quality: quality.jpeg, mozjpeg: false, progressive: true })
      : image.webp({ quality: quality.webp, effort: 2 });
  const info = await encoded.toFile(file);
  return { kind, format, path: file, width: info.width, height: info.height, sizeBytes: info.size };
}

/**
 * The renditions of a photo: a square grid thumbnail (centre crop) and a
 * preview (long edge bounded), each as WebP and JPEG, upright, in sRGB, with
 * all metadata stripped, and the perceptual hash. The original is decoded
 * once, to the preview size (JPEG shrink-on-load makes that cheap); the
 * thumbnail, the encodings and the hash are all made from that.
 * Files are written as outDir/thumbnail.{webp,jpg} and outDir/preview.{webp,jpg}.
 */
export async function renderImageDerivatives(
  input: string,
  outDir: string,
  options: ImageDerivativeOptions = {},
): Promise<ImageDerivatives> {
  const thumbnailSize = options.thumbnailSize ?? 320;
  const previewLongEdge = options.previewLongEdge ?? 1600;
  const quality = { jpeg: options.jpegQuality ?? 82, webp: options.webpQuality ?? 80 };
  const opened = await openImage(input, options);
  await fs.mkdir(outDir, { recursive: true });
  try {
    const { data, info } = await opened.pipeline
      .resize(previewLongEdge, previewLongEdge, { fit: "inside", withoutEnlargement: true })
      .toColourspace("srgb")
      .raw({ depth: "uchar" })
      .toBuffer({ resolveWithObject: true });
    const raw = { width: info.width, height: info.height, channels: info.channels };
    const fromPreview = () => sharp(data, { raw }).timeout({ seconds: options.timeoutSeconds ?? 120 });
    const thumbnail = () => fromPreview().resize(thumbnailSize, thumbnailSize, { fit: "cover", position: "centre" });
    const [perceptualHash, ...renditions] = await Promise.all([
      hashOfImage(fromPreview()),
      write(thumbnail(), "thumbnail", "webp", outDir, quality),
      write(thumbnail(), "thumbnail", "jpeg", outDir, quality),
      write(fromPreview(), "preview", "webp", outDir, quality),
      write(fromPreview(), "preview", "jpeg", outDir, quality),
    ]);
    const { width, height, format, hasAlpha } = opened;
    return { width, height, format, hasAlpha, renditions, perceptualHash };
  } catch (error) {
    throw toMediaError(error);
  }
}

/**
 * One square thumbnail straight from the original (shrink-on-load, crop,
 * encode), for callers that need a single size; the benchmark measures this
 * against vipsthumbnail.
 */
export async function renderThumbnail(
  input: string,
  out: string,
  options: ImageSafetyOptions & { size?: number; format?: "jpeg" | "webp"; quality?: number } = {},
): Promise<ImageRendition> {
  const size = options.size ?? 320;
  const opened = await openImage(input, options);
  try {
    const pipeline = opened.pipeline.resize(size, size, { fit: "cover", position: "centre" }).toColourspace("srgb");
    const encoded =
      options.format === "webp"
        ? pipeline.webp({ quality: options.quality ?? 80, effort: 2 })
        : pipeline.flatten({ background: "#ffffff" }).jpeg({ quality: options.quality ?? 82 });
    const info = await encoded.toFile(out);
    return {
      kind: "thumbnail",
      format: options.format ?? "jpeg",
      path: out,
      width: info.width,
      height: info.height,
      sizeBytes: info.size,
    };
  } catch (error) {
    throw toMediaError(error);
  }
}

export interface CheckedImage {
  format: ImageFormat;
  /** Upright size (EXIF orientation applied). */
  width: number;
  height: number;
}

/**
 * Checks an encoded image held in memory (the image editor's save, a cover
 * crop) before it is stored: the format against `formats` (read from the
 * header; SVG and the other blocked loaders never parse), the pixel count
 * from the header, then a full decode to a tiny size (memory stays small)
 * that refuses truncated or corrupt data. Returns the upright size.
 */
export async function checkImageBuffer(
  input: Buffer,
  options: ImageSafetyOptions & { formats: readonly ImageFormat[] },
): Promise<CheckedImage> {
  const maxPixels = options.maxPixels ?? DEFAULT_MAX_PIXELS;
  let metadata: Metadata;
  try {
    metadata = await sharp(input, decoderOptions(maxPixels)).metadata();
  } catch (error) {
    throw toMediaError(error);
  }
  const format = allowedFormat(metadata);
  if (!options.formats.includes(format)) {
    const accepted = options.formats.map((name) => name.toUpperCase()).join(", ");
    throw new MediaError(
      "unsupported_format",
      `${format.toUpperCase()} images are not accepted here: ${accepted} only`,
    );
  }
  const width = metadata.width ?? 0;
  const height = metadata.height ?? 0;
  if (width <= 0 || height <= 0) throw new MediaError("corrupt", "the image header gives no size");
  if (width * height > maxPixels)
    throw new MediaError("too_large", `the image is ${width}x${height} pixels, more than the allowed ${maxPixels}`);
  try {
    await sharp(input, decoderOptions(maxPixels))
      .timeout({ seconds: options.timeoutSeconds ?? 120 })
      .resize(16, 16, { fit: "inside" })
      .raw()
      .toBuffer();
  } catch (error) {
    throw toMediaError(error);
  }
  const turned = (metadata.orientation ?? 1) >= 5;
  return { format, width: turned ? height : width, height: turned ? width : height };
}
