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
