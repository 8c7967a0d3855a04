import fs from "node:fs/promises";
import type { ExiftoolProcess } from "./exiftool-process.js";
import { MediaError } from "./media-error.js";
import type { ToolLimits } from "./run-tool.js";

/**
 * Where a file was made and which camera made it: EXIF GPS, every tag of
 * exiftool's Location group (XMP and IPTC city, country, sub-location, XMP
 * GPS), every serial number (EXIF, XMP-aux, XMP-exifEX), and the maker notes
 * (which carry serials, and sometimes places, in each vendor's own way).
 */
const PRIVATE_TAGS = ["-gps:all=", "-location:all=", "-*serial*=", "-makernotes:all="];
const PRIVATE_READ = ["-gps:all", "-location:all", "-*serial*", "-makernotes:all"];

/** A story's descriptive fields as they are written into a file on its way out (empty: the tag is removed). */
export interface OutgoingFields {
  title: string;
  headline: string;
  caption: string;
  keywords: string[];
  authors: string[];
  credit: string;
  source: string;
  copyright: string;
  usageTerms: string;
  instructions: string;
  /** Left out of a copy whose location is stripped (they are in exiftool's Location group). */
  city: string;
  country: string;
  /** ISO 8601, or null. */
  capturedAt: string | null;
}

/**
 * What exiftool writes per type: IPTC-IIM (UTF-8, CodedCharacterSet) and XMP
 * where the format has a place for both, XMP alone where it has only that.
 * Every other type (MP3, WAV, MXF, PDF…) passes through unchanged.
 */
export const OUTGOING_METADATA: Record<string, "iptc+xmp" | "xmp"> = {
  "image/jpeg": "iptc+xmp",
  "image/tiff": "iptc+xmp",
  "image/png": "iptc+xmp",
  "image/webp": "xmp",
  "image/heic": "xmp",
  "image/heif": "xmp",
  "image/avif": "xmp",
  "image/gif": "xmp",
  "video/mp4": "xmp",
  "video/quicktime": "xmp",
  "audio/mp4": "xmp",
  "audio/x-m4a": "xmp",
};

/** Whether files of `contentType` get a story's metadata written into them. */
export function embedsMetadata(contentType: string): boolean {
  return OUTGOING_METADATA[contentType.split(";")[0]!.trim().toLowerCase()] !== undefined;
}

/** exiftool's date form, in UTC: `2024:05:01 02:00:00+00:00`. */
function exifDate(iso: string): { full: string; date: string; time: string } | undefined {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return undefined;
  const [date, time] = at.toISOString().slice(0, 19).split("T") as [string, string];
  const day = date.replaceAll("-", ":");
  return { full: `${day} ${time}+00:00`, date: day, time: `${time}+00:00` };
}

/** One line per argument: line breaks (a caption's paragraphs) become spaces, since exiftool reads arguments by line. */
function oneLine(value: string): string {
  return value.replace(/[\r\n]+/g, " ").trim();
}

/** exiftool arguments that set every field (an empty field removes its tags), lists replaced whole. */
export function embedArguments(fields: OutgoingFields, kind: "iptc+xmp" | "xmp", withLocation: boolean): string[] {
  const iptc = kind === "iptc+xmp";
  const args: string[] = [];
  const set = (xmp: string[], iim: string[], value: string) => {
    const text = oneLine(value);
    for (const tag of xmp) args.push(`-${tag}=${text}`);
    if (iptc) for (const tag of iim) args.push(`-${tag}=${text}`);
  };
  const list = (xmp: string, iim: string, values: string[]) => {
    const items = values.map(oneLine).filter(Boolean);
    // The first assignment replaces what the file had; an empty one alone removes it.
    args.push(`-${xmp}=`, ...items.map((item) => `-${xmp}=${item}`));
    if (iptc) args.push(`-${iim}=`, ...items.map((item) => `-${iim}=${item}`));
  };
  if (iptc) args.push("-IPTC:CodedCharacterSet=UTF8");
  set(["XMP-dc:Title"], ["IPTC:ObjectName"], fields.title);
  set(["XMP-photoshop:Headline"], ["IPTC:Headline"], fields.headline);
  set(["XMP-dc:Description"], ["IPTC:Caption-Abstract"], fields.caption);
  list("XMP-dc:Subject", "IPTC:Keywords", fields.keywords);
  list("XMP-dc:Creator", "IPTC:By-line", fields.authors);
  set(["XMP-photoshop:Credit"], ["IPTC:Credit"], fields.credit);
  set(["XMP-photoshop:Source"], ["IPTC:Source"], fields.source);
  set(["XMP-dc:Rights"], ["IPTC:CopyrightNotice"], fields.copyright);
  set(["XMP-xmpRights:UsageTerms"], [], fields.usageTerms);
  set(["XMP-photoshop:Instructions"], ["IPTC:SpecialInstructions"], fields.instructions);
  if (withLocation) {
    set(["XMP-photoshop:City"], ["IPTC:City"], fields.city);
    set(["XMP-photoshop:Country"], ["IPTC:Country-PrimaryLocationName"], fields.country);
  }
  const captured = fields.capturedAt ? exifDate(fields.capturedAt) : undefined;
  args.push(`-XMP-photoshop:DateCreated=${captured?.full ?? ""}`);
  if (iptc) args.push(`-IPTC:DateCreated=${captured?.date ?? ""}`, `-IPTC:TimeCreated=${captured?.time ?? ""}`);
  // Older descriptive tags a reader might prefer to the story's: removed, so the file says one thing.
  args.push("-EXIF:ImageDescription=", "-EXIF:XPTitle=", "-EXIF:XPComment=", "-EXIF:XPSubject=", "-EXIF:XPKeywords=");
  return args;
}

export interface OutgoingMetadataRequest {
  contentType: string;
  /** The story's fields to write; null writes none. */
  fields: OutgoingFields | null;
  /** Remove location and camera serial numbers (a share visitor's copy), checked by reading the copy back. */
  stripPrivate: boolean;
}

/**
 * The copy of a file that leaves the building: `input` is copied to `out`,
 * and exiftool edits the copy (never the input) in ONE request: the story's
 * fields written (`embedArguments`) and, for visitors, location and serial
 * numbers removed. A type exiftool cannot write keeps its bytes; when the
 * private tags were to go and are still there after the write, the copy is
 * removed and the call fails ("refused"): a visitor gets nothing rather than
 * the photographer's whereabouts.
 */
export async function writeOutgoingMetadata(
  input: string,
  out: string,
  request: OutgoingMetadataRequest,
  options: { exiftool: ExiftoolProcess; limits: ToolLimits },
): Promise<void> {
  const run = { timeoutMs: Math.min(options.limits.timeoutMs, 5 * 60_000), signal: options.limits.signal };
  const kind = OUTGOING_METADATA[request.contentType.split(";")[0]!.trim().toLowerCase()];
  await fs.copyFile(input, out);
  await fs.chmod(out, 0o644);
  try {
    const args = [
      ...(request.stripPrivate ? PRIVATE_TAGS : []),
      ...(request.fields && kind ? embedArguments(request.fields, kind, !request.stripPrivate) : []),
    ];
    if (args.length > 0) {
      // A format exiftool cannot write answers with an error line and leaves the copy as it was.
      await options.exiftool.run(["-overwrite_original", "-m", "-q", "-q", ...args, out], run);
    }
    if (request.stripPrivate) {
      const left = await options.exiftool.run(["-m", "-q", "-q", "-s", "-s", "-a", ...PRIVATE_READ, out], run);
      if (left.trim() !== "") {
        throw new MediaError("refused", "the file's location or camera serial number could not be removed");
      }
    }
  } catch (error) {
    await fs.rm(out, { force: true });
    throw error;
  }
}
