/**
 * The upload pages' logic without React: what each page accepts, how the
 * batch form's values travel as tus Upload-Metadata, how the form is built
 * from `/properties/list`, and how a story's processing state is shown.
 */
import type { StoryProperty } from "../../api/catalogue";
import type { Story, UploadType } from "../../api/stories";
import type { CommitBody } from "../../api/uploads";

export type { UploadType };

/** Extensions (and MIME families) each page accepts. */
export const ACCEPTED: Record<UploadType, string[]> = {
  photo: [".jpg", ".jpeg", ".png", ".webp", ".gif", ".tif", ".tiff", ".heic", ".heif"],
  video: [
    ".mp4",
    ".m4v",
    ".mov",
    ".webm",
    ".mkv",
    ".avi",
    ".mpg",
    ".mpeg",
    ".ts",
    ".mts",
    ".m2ts",
    ".wmv",
    ".flv",
    ".3gp",
  ],
  audio: [".mp3", ".m4a", ".aac", ".wav", ".flac", ".ogg", ".oga", ".opus", ".wma", ".aif", ".aiff"],
};

/** The fields the server's upload sink reads from Upload-Metadata besides the file name. */
export const METADATA_TEXT_KEYS = ["title", "caption", "source", "theme", "category"] as const;
export const METADATA_LIST_KEYS = ["keywords", "tags", "authors"] as const;

export interface BatchValues {
  libraryId?: string;
  folderId?: string;
  title?: string;
  caption?: string;
  source?: string;
  theme?: string;
  category?: string;
  keywords?: string[];
  tags?: string[];
  authors?: string[];
}

/**
 * The batch values as tus Upload-Metadata (every value a string; lists as JSON
 * arrays, so a comma inside a keyword survives). Empty values are left out.
 */
export function encodeUploadMetadata(values: BatchValues): Record<string, string> {
  const metadata: Record<string, string> = {};
  if (values.libraryId) metadata.libraryId = values.libraryId;
  if (values.folderId) metadata.folderId = values.folderId;
  for (const key of METADATA_TEXT_KEYS) {
    const value = values[key]?.trim();
    if (value) metadata[key] = value;
  }
  for (const key of METADATA_LIST_KEYS) {
    const list = (values[key] ?? []).map((item) => item.trim()).filter(Boolean);
    if (list.length > 0) metadata[key] = JSON.stringify([...new Set(list)]);
  }
  return metadata;
}

/** One field of the custom-properties form. */
export interface PropertyField {
  name: string;
  label: string;
  kind: StoryProperty["kind"];
  required: boolean;
  quick: boolean;
  options: { value: string; label: string }[];
  initialValue: string | number | boolean | string[] | undefined;
  /** False when the caller's role may not edit it (field-level access); absent: editable. */
  editable?: boolean;
}

/** A property's default (stored as text) as the value its input holds. */
export function defaultOf(property: Pick<StoryProperty, "kind" | "defaultValue">): PropertyField["initialValue"] {
  const text = property.defaultValue;
  if (text === null || text === "") return property.kind === "multiselect" ? [] : undefined;
  switch (property.kind) {
    case "number": {
      const number = Number(text);
      return Number.isFinite(number) ? number : undefined;
    }
    case "switch":
      return text === "true";
    case "multiselect":
      return text
        .split(",")
        .map((item) => item.trim())
        .filter(Boolean);
    default:
      return text;
  }
}

/** The form's fields: quick properties first, then by sort order; one field per name. */
export function fieldsFromProperties(properties: readonly (StoryProperty & { editable?: boolean })[]): PropertyField[] {
  const seen = new Set<string>();
  return [...properties]
    .sort(
      (a, b) => Number(b.isquick) - Number(a.isquick) || a.sortOrder - b.sortOrder || a.label.localeCompare(b.label),
    )
    .filter((property) => {
      if (seen.has(property.name)) return false;
      seen.add(property.name);
      return true;
    })
    .map((property) => ({
      name: property.name,
      label: property.label,
      kind: property.kind,
      required: property.required,
      quick: property.isquick,
      options: property.options,
      initialValue: defaultOf(property),
      ...(property.editable === false ? { editable: false } : {}),
    }));
}

/** The custom-property values to store: dates as YYYY-MM-DD, empty ones left out. */
export function propertyValues(
  fields: readonly PropertyField[],
  values: Record<string, unknown>,
): Record<string, string | number | boolean | string[]> {
  const result: Record<string, string | number | boolean | string[]> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (value === undefined || value === null || value === "") continue;
    if (Array.isArray(value)) {
      if (value.length > 0) result[field.name] = value.map(String);
    } else if (typeof value === "object" && "format" in value && typeof value.format === "function") {
      result[field.name] = String(value.format("YYYY-MM-DD"));
    } else if (typeof value === "number" || typeof value === "boolean" || typeof value === "string") {
      result[field.name] = value;
    }
  }
  return result;
}

/** Story metadata a commit may set (the batch form's fields). */
export type BatchMetadata = Partial<
  Record<"title" | "caption", string> &
    Record<"source" | "theme" | "category", string | null> &
    Record<(typeof METADATA_LIST_KEYS)[number], string[]>
>;

/**
 * What the batch form changed after a file's upload began: the form's
 * Upload-Metadata now against what the file was sent with (both as
 * `encodeUploadMetadata` writes them). The server read the metadata at the
 * upload; a change made in 应用于全部文件 later is applied by the commit
 * (issue 15: it was silently dropped). A field cleared later is cleared.
 */
export function batchChanges(sent: Record<string, string | undefined>, now: Record<string, string>): BatchMetadata {
  const changes: BatchMetadata = {};
  for (const key of METADATA_TEXT_KEYS) {
    const before = sent[key] ?? "";
    const after = now[key] ?? "";
    if (before === after) continue;
    if (key === "title" || key === "caption") changes[key] = after;
    else changes[key] = after === "" ? null : after;
  }
  for (const key of METADATA_LIST_KEYS) {
    const before = sent[key] ?? "";
    const after = now[key] ?? "";
    if (before !== after) changes[key] = after === "" ? [] : (JSON.parse(after) as string[]);
  }
  return changes;
}

/** One commit request: the drafts of one library, the batch's properties and each file's own. */
export interface CommitRequest {
  libraryId: string;
  storyIds: string[];
  extra: Pick<CommitBody, "metadata" | "properties">;
}

/**
 * The commits of the uploaded stories not yet committed, one per library
 * (and per set of batch-form changes made after the files were sent, `changed`).
 * Custom properties are not Upload-Metadata: each commit carries the batch's
 * values and, by story, the values a file set for itself (its own form's raw
 * values by file id), which win over the batch's on the server.
 */
export function commitRequests(
  rows: readonly { fileId: string; libraryId: string; storyId: string }[],
  fields: readonly PropertyField[],
  batch: Record<string, unknown>,
  own: (fileId: string) => Record<string, unknown>,
  changed: (fileId: string) => BatchMetadata = () => ({}),
): CommitRequest[] {
  const properties = propertyValues(fields, batch);
  // One request per library and per set of later batch changes (files sent at different moments differ).
  const groups = new Map<string, { libraryId: string; metadata: BatchMetadata; rows: (typeof rows)[number][] }>();
  for (const row of rows) {
    const metadata = changed(row.fileId);
    const key = JSON.stringify([row.libraryId, metadata]);
    const group = groups.get(key) ?? { libraryId: row.libraryId, metadata, rows: [] };
    group.rows.push(row);
    groups.set(key, group);
  }
  return [...groups.values()].map(({ libraryId, metadata, rows: group }) => {
    const perStory: Record<string, Record<string, unknown>> = {};
    for (const row of group) {
      const values = propertyValues(fields, own(row.fileId));
      if (Object.keys(values).length > 0) perStory[row.storyId] = values;
    }
    return {
      libraryId,
      storyIds: group.map((row) => row.storyId),
      extra: {
        metadata: { ...metadata, properties },
        ...(Object.keys(perStory).length > 0 ? { properties: perStory } : {}),
      },
    };
  });
}

/** What the last PATCH of an upload answers (docs/storage.md). */
export interface UploadResult {
  libraryId: string;
  storyId: string;
  versionNo: number;
  duplicates: { libraryId: string; storyId: string; title: string }[];
}

/** The story an upload became, from the last PATCH's body; null when the body is not one. */
export function parseUploadResult(body: string | null | undefined): UploadResult | null {
  if (!body) return null;
  try {
    const parsed = JSON.parse(body) as { data?: { result?: Partial<UploadResult> } };
    const result = parsed?.data?.result;
    if (!result || typeof result.libraryId !== "string" || typeof result.storyId !== "string") return null;
    return {
      libraryId: result.libraryId,
      storyId: result.storyId,
      versionNo: typeof result.versionNo === "number" ? result.versionNo : 1,
      duplicates: Array.isArray(result.duplicates) ? result.duplicates : [],
    };
  } catch {
    return null;
  }
}

export type ProcessingView = "waiting" | "queued" | "running" | "done" | "failed";

/** How a story's processing state shows: `none` before the first answer is `waiting`. */
export function processingView(story: Pick<Story, "processingState"> | undefined): ProcessingView {
  if (!story) return "waiting";
  switch (story.processingState) {
    case "queued":
    case "running":
    case "done":
    case "failed":
      return story.processingState;
    default:
      return "waiting";
  }
}

/** Whether the page should keep polling the story. */
export function isSettled(story: Pick<Story, "processingState"> | undefined): boolean {
  const view = processingView(story);
  return view === "done" || view === "failed";
}

/** The antd tag colour of each state. */
export const STATE_COLOR: Record<ProcessingView, string> = {
  waiting: "default",
  queued: "default",
  running: "processing",
  done: "success",
  failed: "error",
};

/** The link that opens a story in the viewer. */
export function viewerLink(ref: { libraryId: string; storyId: string }): string {
  return `/frontend/search?story=${encodeURIComponent(ref.libraryId)}/${encodeURIComponent(ref.storyId)}`;
}

/** Per-file values a processed story pre-fills (what extraction found), for the row's editor. */
export interface FileValues {
  title: string;
  caption: string;
  keywords: string[];
  capturedAt: string | null;
}

export function prefillFromStory(story: Pick<Story, "title" | "caption" | "keywords" | "capturedAt">): FileValues {
  return {
    title: story.title ?? "",
    caption: story.caption ?? "",
    keywords: story.keywords ?? [],
    capturedAt: story.capturedAt ?? null,
  };
}

/** Bytes as text (B, KB, MB, GB, TB; 1024 steps). */
export function formatBytes(bytes: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}
