import type { StoryFile } from "../../api/stories";
import type { StoryAction, StoryVersion } from "../../api/story-detail";
import { formatSize } from "./format";

export type VersionField =
  | "size"
  | "dimensions"
  | "mime"
  | "checksum"
  | "originalName"
  | "createdBy"
  | "createdAt"
  | "note";

export interface VersionFieldRow {
  field: VersionField;
  a: string;
  b: string;
  different: boolean;
}

type VersionLike = Pick<
  StoryVersion,
  "versionNo" | "size" | "mime" | "sha256" | "originalName" | "createdBy" | "createdAt" | "note"
> & { files: Pick<StoryFile, "role" | "width" | "height" | "mediaUrl" | "mime">[] };

/**
 * Who made each version, from the story's action trail: `create` made
 * version 1, each `new-version` names the version it made. Versions made
 * before the trail (or by the system) have no name.
 */
export function versionAuthors(actions: Pick<StoryAction, "action" | "username" | "details">[]): Map<number, string> {
  const authors = new Map<number, string>();
  for (const action of actions) {
    if (!action.username) continue;
    if (action.action === "create" && !authors.has(1)) authors.set(1, action.username);
    const versionNo = action.details.versionNo;
    if (action.action === "new-version" && typeof versionNo === "number") authors.set(versionNo, action.username);
  }
  return authors;
}

function dimensions(version: VersionLike): string {
  const original = version.files.find((file) => file.role === "original");
  return original?.width && original.height ? `${original.width} × ${original.height}` : "";
}

/** The fields of two versions side by side, each marked when they differ. */
export function versionDifferences(
  a: VersionLike,
  b: VersionLike,
  authors: Map<number, string>,
  formatTime: (iso: string) => string,
): VersionFieldRow[] {
  const values = (version: VersionLike): Record<VersionField, string> => ({
    size: version.size == null ? "" : formatSize(version.size),
    dimensions: dimensions(version),
    mime: version.mime ?? "",
    checksum: version.sha256 ?? "",
    originalName: version.originalName ?? "",
    createdBy: authors.get(version.versionNo) ?? version.createdBy ?? "",
    createdAt: formatTime(version.createdAt),
    note: version.note ?? "",
  });
  const left = values(a);
  const right = values(b);
  const exact: Partial<Record<VersionField, [unknown, unknown]>> = { size: [a.size, b.size] };
  return (Object.keys(left) as VersionField[]).map((field) => {
    const [x, y] = exact[field] ?? [left[field], right[field]];
    return { field, a: left[field], b: right[field], different: x !== y };
  });
}

const INLINE_IMAGES = ["image/jpeg", "image/png", "image/webp", "image/gif"];

/** The image that shows a version best: its preview, else its thumbnail or poster, else an original the browser can show. */
export function versionImage(version: VersionLike): string | null {
  for (const role of ["preview", "poster", "thumbnail"]) {
    const file = version.files.find((candidate) => candidate.role === role);
    if (file) return file.mediaUrl;
  }
  const original = version.files.find((file) => file.role === "original");
  return original && INLINE_IMAGES.includes(original.mime) ? original.mediaUrl : null;
}
