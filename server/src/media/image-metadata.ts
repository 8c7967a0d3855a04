import exifr from "exifr";
import sharp from "sharp";
import { readWithExiftool } from "./exiftool-fallback.js";
import type { ExiftoolProcess } from "./exiftool-process.js";
import { allowedFormat } from "./images.js";
import { errorMessage, MediaError } from "./media-error.js";
import { iptcDate, isoDate } from "./metadata-dates.js";
import { DEFAULT_TOOL_LIMITS, probeLimits, type ToolLimits } from "./run-tool.js";
import { decodeIptcString, decodeLegacyBytes, decodeUcs2, decodeUserComment, decodeXmpValue } from "./text-decoding.js";

/** What a newsroom wants from a photo's EXIF, IPTC and XMP, each field null when the file does not say. */
export { isoDate };

export interface ImageMetadata {
  /** ISO 8601; with the UTC offset when the file records one (EXIF OffsetTimeOriginal, XMP), else local time without a zone. */
  capturedAt: string | null;
  cameraMake: string | null;
  cameraModel: string | null;
  lens: string | null;
  /** EXIF orientation 1-8 as stored (the renditions are already turned). */
  orientation: number | null;
  gps: { latitude: number; longitude: number; altitude: number | null } | null;
  /** Pixel size as shown, after the orientation. */
  width: number | null;
  height: number | null;
  caption: string | null;
  title: string | null;
  headline: string | null;
  keywords: string[];
  credit: string | null;
  creator: string | null;
  copyright: string | null;
  source: string | null;
  city: string | null;
  country: string | null;
  /** Problems met while reading (a damaged EXIF block, say); the fields that could be read are still given. */
  warnings: string[];
}

type Block = Record<string, unknown>;
type Parsed = Partial<Record<"ifd0" | "exif" | "gps" | "iptc" | "dc" | "photoshop" | "xmp" | "xap", Block>>;

/** What exifr returns from the binary segments; every other block is an XMP namespace (dc, photoshop, xmp, …). */
const BINARY_BLOCKS = new Set(
  "ifd0 ifd1 exif gps interop thumbnail iptc icc jfif ihdr makerNote userComment errors".split(" "),
);

/** XMP text is XML: its entities are decoded once, in every namespace; the binary blocks hold text as it is. */
function decodeXmpBlocks(parsed: Record<string, unknown>): Parsed {
  return Object.fromEntries(
    Object.entries(parsed).map(([name, block]) => [name, BINARY_BLOCKS.has(name) ? block : decodeXmpValue(block)]),
  ) as Parsed;
}

/** Captions cameras write by themselves; they say nothing about the picture. */
const CAMERA_BOILERPLATE =
  /^(OLYMPUS DIGITAL CAMERA|SONY DSC|DIGITAL CAMERA|KODAK .*CAMERA|MINOLTA DIGITAL CAMERA|Default|SAMSUNG|<KENOX.*>|DCIM.*)$/i;

function clean(text: string): string | null {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NULs and control bytes pad camera strings
  const trimmed = text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "").trim();
  return trimmed.length > 0 ? trimmed : null;
}

/** A value from any block as text: strings, numbers (exifr parses "2008" in XMP as a number), XMP lang-alt, byte arrays. */
function text(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  // EXIF ASCII ends at the first NUL; what follows is padding or garbage (as exiftool reads it).
  if (typeof value === "string") return clean(value.split("\0")[0] ?? "");
  if (typeof value === "number") return String(value);
  if (value instanceof Uint8Array) return clean(decodeLegacyBytes(value));
  if (Array.isArray(value)) {
    const preferred = value.find((entry) => (entry as Block)?.lang === "x-default") ?? value[0];
    return value.every((entry) => typeof entry === "string" || typeof entry === "number")
      ? clean(value.map(String).join(", "))
      : text(preferred);
  }
  if (typeof value === "object" && "value" in (value as Block)) return text((value as Block).value);
  return null;
}

function list(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const values = Array.isArray(value) ? value : [value];
  return values.map((entry) => text(entry)).filter((entry): entry is string => entry !== null);
}

function iptcText(value: unknown): string | null {
  if (typeof value === "string") return clean(decodeIptcString(value));
  if (Array.isArray(value)) return clean(value.map((entry) => decodeIptcString(String(entry))).join(", "));
  return null;
}

function iptcList(value: unknown): string[] {
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return values.map((entry) => clean(decodeIptcString(String(entry)))).filter((entry): entry is string => !!entry);
}

function first<T>(...candidates: (T | null | undefined)[]): T | null {
  for (const candidate of candidates) if (candidate !== null && candidate !== undefined) return candidate;
  return null;
}

function degrees(value: unknown, ref: unknown, negativeRef: string): number | null {
  let result: number | null = null;
  if (Array.isArray(value) && value.length > 0 && value.every((part) => typeof part === "number")) {
    const [d = 0, m = 0, s = 0] = value as number[];
    result = d + m / 60 + s / 3600;
  } else if (typeof value === "number") result = value;
  if (result === null || !Number.isFinite(result)) return null;
  return typeof ref === "string" && ref.trim().toUpperCase().startsWith(negativeRef) ? -Math.abs(result) : result;
}

function gpsOf(gps: Block | undefined): ImageMetadata["gps"] {
  if (!gps) return null;
  const latitude = degrees(gps.GPSLatitude, gps.GPSLatitudeRef, "S");
  const longitude = degrees(gps.GPSLongitude, gps.GPSLongitudeRef, "W");
  if (latitude === null || longitude === null || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  const rawAltitude = typeof gps.GPSAltitude === "number" && Number.isFinite(gps.GPSAltitude) ? gps.GPSAltitude : null;
  const below = gps.GPSAltitudeRef instanceof Uint8Array ? gps.GPSAltitudeRef[0] === 1 : gps.GPSAltitudeRef === 1;
  return { latitude, longitude, altitude: rawAltitude === null ? null : below ? -rawAltitude : rawAltitude };
}

const PARSE_OPTIONS = {
  tiff: true,
  exif: true,
  gps: true,
  iptc: true,
  xmp: true,
  icc: false,
  ifd1: false,
  interop: false,
  makerNote: false,
  userComment: true,
  // Raw values: dates as written (exifr would turn them into Dates in the server's time zone) and numbers as numbers.
  translateValues: false,
  reviveValues: false,
  mergeOutput: false,
  sanitize: true,
  silentErrors: true,
};

async function readDimensions(file: string): Promise<{ width: number; height: number; format: string }> {
  const metadata = await sharp(file, { failOn: "none", limitInputPixels: false }).metadata();
  allowedFormat(metadata);
  const turned = (metadata.orientation ?? 1) >= 5;
  const width = metadata.width ?? 0;
  const height = metadata.height ?? 0;
  return { width: turned ? height : width, height: turned ? width : height, format: metadata.format ?? "unknown" };
}

/**
 * Reads EXIF, IPTC and XMP (exifr: pure JavaScript, reads only the metadata
 * segments, JPEG, TIFF, HEIC, PNG, WebP, AVIF). XMP wins over IPTC, which wins
 * over EXIF, for the descriptive fields, because editors update XMP first.
 * A file that is not an image throws MediaError; a damaged metadata block is
 * reported in `warnings` and the rest is returned.
 */
export async function extractImageMetadata(
  file: string,
  options: { exiftoolFallback?: boolean; limits?: ToolLimits; exiftool?: ExiftoolProcess } = {},
): Promise<ImageMetadata> {
  let dimensions: { width: number; height: number };
  try {
    dimensions = await readDimensions(file);
  } catch (error) {
    throw new MediaError("unsupported_format", "the file is not an image we can read", { cause: error });
  }
  const warnings: string[] = [];
  let parsed: Parsed = {};
  try {
    parsed = decodeXmpBlocks(((await exifr.parse(file, PARSE_OPTIONS)) as Record<string, unknown> | undefined) ?? {});
    const errors = (parsed as { errors?: unknown[] }).errors;
    if (Array.isArray(errors)) warnings.push(...errors.map((error) => `metadata: ${errorMessage(error)}`));
  } catch (error) {
    warnings.push(`metadata could not be read: ${errorMessage(error)}`);
  }
  const ifd0 = parsed.ifd0 ?? {};
  const exif = parsed.exif ?? {};
  const iptc = parsed.iptc ?? {};
  const dc = parsed.dc ?? {};
  const photoshop = parsed.photoshop ?? {};
  const xmpBasic = { ...(parsed.xap ?? {}), ...(parsed.xmp ?? {}) };
  const userComment = (parsed as { userComment?: unknown }).userComment;
  const xp = (key: string) => (ifd0[key] instanceof Uint8Array ? clean(decodeUcs2(ifd0[key] as Uint8Array)) : null);

  const orientation = typeof ifd0.Orientation === "number" && ifd0.Orientation >= 1 && ifd0.Orientation <= 8;
  const caption = first(
    text(dc.description),
    iptcText(iptc.Caption),
    text(ifd0.ImageDescription),
    xp("XPComment"),
    userComment instanceof Uint8Array ? clean(decodeUserComment(userComment)) : null,
  );
  const keywords = [
    ...new Set([...list(dc.subject), ...iptcList(iptc.Keywords), ...(xp("XPKeywords")?.split(/\s*;\s*/) ?? [])]),
  ];
  const metadata: ImageMetadata = {
    capturedAt: first(
      isoDate(exif.DateTimeOriginal, exif.OffsetTimeOriginal ?? exif.OffsetTime),
      isoDate(exif.CreateDate, exif.OffsetTimeDigitized ?? exif.OffsetTime),
      isoDate(photoshop.DateCreated),
      isoDate(xmpBasic.CreateDate),
      iptcDate(iptc.DateCreated, iptc.TimeCreated),
    ),
    cameraMake: text(ifd0.Make),
    cameraModel: text(ifd0.Model),
    lens: first(text(exif.LensModel), text(exif.Lens)),
    orientation: orientation ? (ifd0.Orientation as number) : null,
    gps: gpsOf(parsed.gps),
    width: dimensions.width || null,
    height: dimensions.height || null,
    caption: caption && CAMERA_BOILERPLATE.test(caption) ? null : caption,
    title: first(text(dc.title), iptcText(iptc.ObjectName), xp("XPTitle")),
    headline: first(text(photoshop.Headline), iptcText(iptc.Headline)),
    keywords: keywords.filter(Boolean),
    credit: first(text(photoshop.Credit), iptcText(iptc.Credit)),
    creator: first(text(dc.creator), iptcText(iptc.Byline), text(ifd0.Artist), xp("XPAuthor")),
    copyright: first(text(dc.rights), iptcText(iptc.CopyrightNotice), text(ifd0.Copyright)),
    source: first(text(photoshop.Source), iptcText(iptc.Source)),
    city: first(text(photoshop.City), iptcText(iptc.City)),
    country: first(text(photoshop.Country), iptcText(iptc.Country)),
    warnings,
  };
  if (options.exiftoolFallback !== false && (metadata.capturedAt === null || metadata.cameraModel === null)) {
    try {
      const limits = probeLimits(options.limits ?? DEFAULT_TOOL_LIMITS);
      const facts = await readWithExiftool(file, limits, options.exiftool);
      metadata.capturedAt ??= facts.capturedAt;
      metadata.cameraMake ??= facts.cameraMake;
      metadata.cameraModel ??= facts.cameraModel;
      metadata.gps ??= facts.gps;
    } catch (error) {
      warnings.push(`exiftool: ${errorMessage(error)}`);
    }
  }
  return metadata;
}
