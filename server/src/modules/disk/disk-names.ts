import { Invalid } from "../../http/errors.js";

/** Bytes a name may take in UTF-8 (what file systems allow for one path segment). */
const MAX_NAME_BYTES = 255;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
const FORBIDDEN = /[/\\\u0000-\u001f\u007f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/**
 * A file or folder name of the disk: one path segment, never a way out of
 * its folder. Refuses separators (`/`, `\`), `.` and `..`, control and bidi
 * characters, an empty or over-long name; surrounding spaces are trimmed.
 */
export function diskName(raw: string, field = "name"): string {
  const name = raw.normalize("NFC").trim();
  if (name === "") throw new Invalid(`${field}: a name is required`, "invalid_name");
  if (name === "." || name === "..") throw new Invalid(`${field}: "${name}" is not a name`, "invalid_name");
  if (FORBIDDEN.test(name))
    throw new Invalid(`${field}: a name may not hold / or \\ or control characters`, "invalid_name");
  if (Buffer.byteLength(name, "utf8") > MAX_NAME_BYTES)
    throw new Invalid(`${field}: a name is at most ${MAX_NAME_BYTES} bytes`, "invalid_name");
  return name;
}

/** `report.pdf` → `report (2).pdf`: the name a restored or copied node takes when its own is taken. */
export function numberedName(name: string, n: number): string {
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return `${name} (${n})`;
  return `${name.slice(0, dot)} (${n})${name.slice(dot)}`;
}
