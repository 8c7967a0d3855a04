import { Invalid } from "../../http/errors.js";

/** `data:[<type>][;param=value]*;base64,` — the prefix canvas.toDataURL writes. */
const DATA_URL = /^data:[^,;]*((?:;[^,;]*)*?);base64,/i;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * The bytes of a data URL or of bare base64. The declared media type is
 * ignored (the content decides); anything that is not strict base64 is
 * refused rather than decoded leniently. The size is bounded by the JSON
 * body limit the request already passed.
 */
export function decodeBase64Image(value: string, field = "base64String"): Buffer {
  let text = value.trim();
  if (/^data:/i.test(text)) {
    const prefix = DATA_URL.exec(text);
    if (!prefix) throw new Invalid(`${field}: a data URL must be base64-encoded (…;base64,…)`, "invalid_base64");
    text = text.slice(prefix[0].length);
  }
  text = text.replace(/\s+/g, "");
  if (text.length === 0) throw new Invalid(`${field}: the image is empty`, "invalid_base64");
  if (!BASE64.test(text) || text.length % 4 === 1) {
    throw new Invalid(`${field}: not valid base64`, "invalid_base64");
  }
  return Buffer.from(text, "base64");
}
