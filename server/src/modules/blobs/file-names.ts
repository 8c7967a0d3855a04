/**
 * The names files leave the server under (Content-Disposition, zip entries).
 * A name comes from people (a title, the uploader's file name), so it is
 * made safe where it leaves, for every route: the extension says what the
 * bytes are (a JPEG uploaded as `poly.html` downloads as `poly.jpg`, and a
 * file opened from the downloads folder is never run as a page), and nothing
 * in it can reorder what the user sees, split a header or leave the folder.
 */

/** Extensions by content type, the usual one first; the others are kept when a name already has them. */
export const TYPE_EXTENSIONS: Readonly<Record<string, readonly string[]>> = {
  "image/jpeg": ["jpg", "jpeg", "jpe", "jfif"],
  "image/png": ["png"],
  "image/webp": ["webp"],
  "image/gif": ["gif"],
  "image/tiff": ["tif", "tiff"],
  "image/heic": ["heic", "heif"],
  "image/heif": ["heif", "heic"],
  "image/avif": ["avif"],
  "image/bmp": ["bmp"],
  "video/mp4": ["mp4", "m4v"],
  "video/quicktime": ["mov", "qt"],
  "video/x-m4v": ["m4v", "mp4"],
  "video/webm": ["webm"],
  "video/matroska": ["mkv"],
  "video/vnd.avi": ["avi"],
  "video/mp2t": ["ts", "mts", "m2ts"],
  "video/3gpp": ["3gp"],
  "video/3gpp2": ["3g2"],
  "application/mxf": ["mxf"],
  "audio/mpeg": ["mp3"],
  "audio/mp4": ["m4a", "mp4"],
  "audio/x-m4a": ["m4a", "mp4"],
  "audio/aac": ["aac"],
  "audio/wav": ["wav"],
  "audio/flac": ["flac"],
  "audio/ogg": ["ogg", "oga", "opus"],
  "application/json": ["json"],
  "application/zip": ["zip"],
  "application/octet-stream": ["bin"],
};

/** The usual extension of a content type (`jpg`), or undefined for a type the table does not know. */
export function extensionForType(contentType: string): string | undefined {
  return TYPE_EXTENSIONS[baseType(contentType)]?.[0];
}

function baseType(contentType: string): string {
  return (contentType.split(";")[0] ?? "").trim().toLowerCase();
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
/** Bidirectional controls (a name showing `photo‮gpj.exe` as `photoexe.jpg`), line separators, the BOM. */
const INVISIBLE = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]/g;
/** Path separators, `;` (which ends a header parameter for careless parsers), and what Windows refuses. */
const NEUTRALISED = /[/\\;:*?"<>|]/g;
/** Names Windows keeps for devices, with any extension. */
const DEVICE_NAME = /^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i;

/**
 * Text made safe as a file name: NUL, path separators, `;` and the
 * characters Windows refuses become `_`; other control characters, bidi
 * controls and line separators go; no leading dots or spaces, no trailing
 * dots or spaces (Windows drops them), no device names.
 */
export function safeFileNameText(text: string): string {
  const cleaned = text
    .replaceAll("\u0000", "_")
    .replace(CONTROL, "")
    .replace(INVISIBLE, "")
    .replace(NEUTRALISED, "_")
    .replace(/^[\s.]+|[\s.]+$/g, "");
  return DEVICE_NAME.test(cleaned) ? `_${cleaned}` : cleaned;
}

/**
 * The name a file is sent under: safe (`safeFileNameText`), and with an
 * extension that matches its content type — kept when the name has one the
 * type is known by (`.JPEG` for a JPEG), otherwise the type's own added in
 * place of whatever the name claimed.
 */
export function downloadName(name: string, contentType: string): string {
  const safe = safeFileNameText(name) || "file";
  const known = TYPE_EXTENSIONS[baseType(contentType)];
  if (!known) return safe;
  const dot = safe.lastIndexOf(".");
  const extension = dot > 0 ? safe.slice(dot + 1).toLowerCase() : "";
  if (known.includes(extension)) return safe;
  const stem = dot > 0 && /^[a-z0-9]{1,5}$/.test(extension) ? safe.slice(0, dot) : safe;
  return `${stem.replace(/[\s.]+$/, "") || "file"}.${known[0]}`;
}
