import fsp from "node:fs/promises";
import { fileTypeFromBuffer } from "file-type";
import { AppError } from "../http/errors.js";

export type MediaKind = "photo" | "video" | "audio";

export interface SniffedType {
  kind: MediaKind;
  mime: string;
  /** Without the dot, as the server names stored files and downloads: `jpg`, `mp4`. */
  extension: string;
}

/** A file whose content is not an accepted image, video or audio type (415). */
export class RefusedFileType extends AppError {
  constructor(
    message: string,
    /** What the content was found to be, for logs: `html`, `elf`, `unknown`. */
    readonly detected: string,
  ) {
    super(415, "unsupported_file_type", message);
  }
}

/**
 * The allow-list, by the MIME type file-type reports for the magic bytes.
 * Anything not here is refused, whatever its name or declared type says.
 */
const ACCEPTED: Record<string, { kind: MediaKind; label: string; mime?: string }> = {
  "image/jpeg": { kind: "photo", label: "JPEG" },
  "image/png": { kind: "photo", label: "PNG" },
  "image/apng": { kind: "photo", label: "PNG", mime: "image/png" },
  "image/gif": { kind: "photo", label: "GIF" },
  "image/webp": { kind: "photo", label: "WebP" },
  "image/tiff": { kind: "photo", label: "TIFF" },
  "image/heic": { kind: "photo", label: "HEIC" },
  "image/heif": { kind: "photo", label: "HEIF" },
  "image/avif": { kind: "photo", label: "AVIF" },
  "image/bmp": { kind: "photo", label: "BMP" },
  "video/mp4": { kind: "video", label: "MP4" },
  "video/quicktime": { kind: "video", label: "MOV" },
  "video/x-m4v": { kind: "video", label: "M4V" },
  "video/webm": { kind: "video", label: "WebM" },
  "video/matroska": { kind: "video", label: "MKV" },
  "video/vnd.avi": { kind: "video", label: "AVI" },
  "video/mp2t": { kind: "video", label: "MPEG-TS" },
  "video/3gpp": { kind: "video", label: "3GP" },
  "video/3gpp2": { kind: "video", label: "3GP" },
  "application/mxf": { kind: "video", label: "MXF" },
  "audio/mpeg": { kind: "audio", label: "MP3" },
  "audio/aac": { kind: "audio", label: "AAC" },
  "audio/x-m4a": { kind: "audio", label: "M4A" },
  "audio/mp4": { kind: "audio", label: "M4A" },
  "audio/wav": { kind: "audio", label: "WAV" },
  "audio/flac": { kind: "audio", label: "FLAC" },
  "audio/ogg": { kind: "audio", label: "Ogg" },
  "audio/ogg; codecs=opus": { kind: "audio", label: "Opus", mime: "audio/ogg" },
};

function acceptedList(kind: MediaKind): string {
  return [
    ...new Set(
      Object.values(ACCEPTED)
        .filter((type) => type.kind === kind)
        .map((type) => type.label),
    ),
  ].join(", ");
}

/** The accepted types by kind, as every refusal names them (its `msgParams`). */
const ACCEPTED_PARAMS = {
  photoTypes: acceptedList("photo"),
  videoTypes: acceptedList("video"),
  audioTypes: acceptedList("audio"),
};

/** The sentence every refusal ends with. */
export const ACCEPTED_TYPES = `Accepted: images (${ACCEPTED_PARAMS.photoTypes}), video (${ACCEPTED_PARAMS.videoTypes}) and audio (${ACCEPTED_PARAMS.audioTypes}).`;

/** How many leading bytes sniffing reads: file-type needs at most ~4 KiB; MPEG-TS and some MP3s want a little more. */
/** How many first bytes the content check reads. */
export const SNIFF_BYTES = 64 * 1024;

/**
 * What a refused file is, by the key its refusal names (`msgParams.content`
 * of `file.refused`; the web app translates `server.content.<key>`): the
 * extensions file-type reports, and the text formats it leaves alone.
 */
const DESCRIPTIONS: Record<string, string> = {
  playlist: "a playlist (M3U/HLS)",
  script: "a script",
  svg: "an SVG image (it can carry scripts)",
  html: "an HTML document",
  elf: "an executable program (ELF)",
  exe: "an executable program (Windows)",
  macho: "an executable program (Mach-O)",
  class: "a Java class file",
  wasm: "a WebAssembly module",
  zip: "a ZIP archive",
  rar: "a RAR archive",
  "7z": "a 7-Zip archive",
  gz: "a gzip archive",
  bz2: "a bzip2 archive",
  xz: "an xz archive",
  tar: "a tar archive",
  pdf: "a PDF document",
  xml: "an XML document",
  swf: "a Flash file",
  ps: "a PostScript document",
  eps: "a PostScript document",
};

/** Text formats file-type leaves alone but that must be named when refused: their DESCRIPTIONS key. */
function describeText(head: Buffer): "playlist" | "script" | "svg" | "html" | null {
  const text = head
    .subarray(0, 1024)
    .toString("utf8")
    .replace(/^\uFEFF/, "")
    .trimStart()
    .toLowerCase();
  if (text.startsWith("#extm3u")) return "playlist";
  if (text.startsWith("#!")) return "script";
  if (/<svg[\s>]/.test(text)) return "svg";
  if (
    text.startsWith("<!doctype html") ||
    /^<(html|head|body|script|iframe)[\s>]/.test(text) ||
    /<script[\s>]/.test(text)
  )
    return "html";
  return null;
}

/**
 * Refuses the file as `what`; `msgCode` and `msgParams` name the message
 * for the web app's translation (`file.*`, with the accepted types).
 */
function refuse(what: string, detected: string, msgCode: string, msgParams: Record<string, string> = {}): never {
  throw new RefusedFileType(
    `This file is ${what}, which cannot be uploaded. ${ACCEPTED_TYPES}`,
    detected,
  ).withMessageCode(msgCode, { ...msgParams, ...ACCEPTED_PARAMS });
}

/** Refuses a file DESCRIPTIONS names by `content`. */
function refuseAs(content: string, detected: string): never {
  refuse(DESCRIPTIONS[content]!, detected, "file.refused", { content });
}

/** The type of `head` (the first bytes of a file) by its content; throws RefusedFileType outside the allow-list. */
export async function sniffBuffer(head: Uint8Array): Promise<SniffedType> {
  const buffer = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (buffer.length === 0) refuse("empty", "empty", "file.empty");
  const detected = await fileTypeFromBuffer(buffer);
  if (!detected) {
    const text = describeText(buffer);
    if (text) refuseAs(text, text === "html" || text === "svg" ? text : "text");
    refuse("of a type that could not be recognised from its content", "unknown", "file.unrecognised");
  }
  const accepted = ACCEPTED[detected.mime];
  if (!accepted) {
    const text = detected.ext === "xml" ? describeText(buffer) : null;
    if (text) refuseAs(text, "svg");
    if (DESCRIPTIONS[detected.ext]) refuseAs(detected.ext, detected.ext);
    const type = detected.ext.toUpperCase();
    refuse(`a ${type} file (${detected.mime})`, detected.ext, "file.refusedType", { type, mime: detected.mime });
  }
  return { kind: accepted.kind, mime: accepted.mime ?? detected.mime, extension: detected.ext };
}

/** The type of a file on the local disk, from its first bytes. */
export async function sniffFile(file: string): Promise<SniffedType> {
  const handle = await fsp.open(file, "r");
  try {
    const head = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0);
    return await sniffBuffer(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}
