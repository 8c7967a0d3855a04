/**
 * Text in photo metadata arrives in several encodings. IPTC IIM names its
 * character set in record 1:90, which many tools omit; exifr hands IPTC values
 * over as Latin-1 strings, so the original bytes can be recovered exactly and
 * decoded here: UTF-8 when the bytes are valid UTF-8 (what every current tool
 * writes, declared or not), else GB 18030 when the bytes have the shape of
 * GB 2312 text (every non-ASCII byte pairs with another, both in 0xA1-0xFE
 * for the second) and read as Chinese (older Chinese newsroom systems), else
 * Latin-1. Western Latin-1 text puts single accented bytes between ASCII
 * letters, which that shape test rejects.
 */
const utf8 = new TextDecoder("utf-8", { fatal: true });
const gb18030 = new TextDecoder("gb18030", { fatal: true });
const HAN = /\p{Script=Han}/u;

function looksLikeGb2312(bytes: Uint8Array): boolean {
  for (let index = 0; index < bytes.length; index++) {
    const byte = bytes[index] ?? 0;
    if (byte < 0x80) continue;
    const trail = bytes[index + 1] ?? 0;
    if (byte < 0x81 || trail < 0xa1 || trail > 0xfe) return false;
    index++;
  }
  return true;
}

export function decodeLegacyBytes(bytes: Uint8Array): string {
  if (bytes.every((byte) => byte < 0x80)) return Buffer.from(bytes).toString("latin1");
  try {
    return utf8.decode(bytes);
  } catch {
    // not UTF-8
  }
  if (looksLikeGb2312(bytes)) {
    try {
      const chinese = gb18030.decode(bytes);
      if (HAN.test(chinese)) return chinese;
    } catch {
      // not GB 18030 either
    }
  }
  return Buffer.from(bytes).toString("latin1");
}

/** An IPTC value as exifr returns it (one Latin-1 char per byte) turned back into the text it holds. */
export function decodeIptcString(value: string): string {
  return decodeLegacyBytes(Buffer.from(value, "latin1"));
}

/** Windows XP* tags (XPTitle, XPComment, XPKeywords, XPAuthor): UCS-2 little-endian bytes. */
export function decodeUcs2(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("utf16le").replace(/\0+$/, "");
}

/** EXIF UserComment: an 8-byte character-code header, then the text. */
export function decodeUserComment(bytes: Uint8Array): string {
  const header = Buffer.from(bytes.subarray(0, 8)).toString("latin1");
  const body = bytes.subarray(8);
  if (header.startsWith("UNICODE")) {
    const even = Buffer.from(body.subarray(0, body.length - (body.length % 2)));
    // Byte order follows the TIFF header we do not see here; text in the Latin or CJK ranges shows it.
    const bigEndian = even.length > 1 && even[0] === 0 && even[1] !== 0;
    const swapped = bigEndian ? even.swap16() : even;
    return swapped.toString("utf16le").replace(/\0+$/, "");
  }
  if (header.startsWith("ASCII") || header === "\0\0\0\0\0\0\0\0") return decodeLegacyBytes(trimNulls(body));
  return "";
}

function trimNulls(bytes: Uint8Array): Uint8Array {
  let end = bytes.length;
  while (end > 0 && (bytes[end - 1] === 0 || bytes[end - 1] === 0x20)) end--;
  return bytes.subarray(0, end);
}

const XML_ENTITY = /&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|(amp|lt|gt|quot|apos));/gi;
const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/**
 * XMP is XML: `Fish &amp; Chips &#39;n&#39;` means `Fish & Chips 'n'`. exifr
 * hands the text over as written, so it is decoded here, once (as exiftool
 * does): `&amp;lt;` becomes `&lt;`, not `<`. A numeric reference to no
 * character (a surrogate, past U+10FFFF, NUL) is left as written.
 */
export function decodeXmlEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(
    XML_ENTITY,
    (whole, decimal: string | undefined, hex: string | undefined, name: string | undefined) => {
      if (name !== undefined) return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
      const code = decimal !== undefined ? Number.parseInt(decimal, 10) : Number.parseInt(hex!, 16);
      const isCharacter = code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
      return isCharacter ? String.fromCodePoint(code) : whole;
    },
  );
}

/** Every string in an XMP block (values, lang-alt entries, structures, lists), decoded once. */
export function decodeXmpValue<T>(value: T): T {
  if (typeof value === "string") return decodeXmlEntities(value) as T;
  if (Array.isArray(value)) return value.map((entry) => decodeXmpValue(entry)) as T;
  if (value && typeof value === "object" && !(value instanceof Uint8Array)) {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, decodeXmpValue(entry)])) as T;
  }
  return value;
}
