import { Forbidden, Invalid } from "../../http/errors.js";
import { DavStatus } from "./dav-responses.js";

/** The segments of a path under the prefix; `.` and `..` are refused, never resolved. */
export function segmentsUnder(prefix: string, readOnlyPrefixes: readonly string[], rawPath: string): string[] {
  const noQuery = rawPath.split(/[?#]/)[0] ?? "";
  const under = (prefix: string) => noQuery === prefix || noQuery.startsWith(`${prefix}/`);
  if (!under(prefix)) {
    if (readOnlyPrefixes.some(under)) {
      throw new Forbidden(
        "the destination is read-only over WebDAV: nothing can be copied or moved there",
        "dav_read_only",
      );
    }
    throw new DavStatus(502, "the destination is not on this mount");
  }
  const segments: string[] = [];
  for (const raw of noQuery.slice(prefix.length).split("/")) {
    if (raw === "") continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      throw new Invalid("the path is not valid percent-encoding", "invalid_path");
    }
    if (segment === "." || segment === "..") throw new Invalid(`the path may not hold "${segment}"`, "invalid_path");
    segments.push(segment.normalize("NFC"));
  }
  return segments;
}

/** Whether a GET reads a file whole from its first byte (a download, not a player seeking; see sendStoryFile). */
export function fromFirstByte(range: string | undefined): boolean {
  const single = /^bytes=(\d*)-(\d*)$/.exec(range?.trim() ?? "");
  if (!single) return true;
  const [, first, last] = single;
  return first === "" ? last === "" : Number(first) === 0;
}
