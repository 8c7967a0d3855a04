import { Invalid } from "../../http/errors.js";
import { PERCEPTUAL_HASH } from "./duplicates.js";
import type { StoryUpdate } from "./stories.repository.js";
import type { Gps, Story, StoryMetadata } from "./story-types.js";

/** Keys of `properties` only the server writes. */
const RESERVED_PROPERTIES = ["lastVersion"];

export function mergeProperties(
  current: Record<string, unknown>,
  patch: Record<string, unknown> | undefined,
): Record<string, unknown> {
  if (!patch) return current;
  const reserved = Object.keys(patch).find((key) => RESERVED_PROPERTIES.includes(key));
  if (reserved) throw new Invalid(`properties.${reserved}: is set by the server`, "reserved_property");
  const merged = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

/** The column changes a metadata patch makes; JSON columns through `json`. */
export function metadataChanges(
  story: Pick<Story, "properties">,
  metadata: StoryMetadata,
  json: (value: unknown) => string,
): StoryUpdate {
  const changes: StoryUpdate = {};
  if (metadata.title !== undefined) changes.title = metadata.title;
  if (metadata.caption !== undefined) changes.caption = metadata.caption;
  if (metadata.authors !== undefined) changes.authors = json(metadata.authors);
  if (metadata.source !== undefined) changes.source = metadata.source;
  if (metadata.keywords !== undefined) changes.keywords = json(metadata.keywords);
  if (metadata.tags !== undefined) changes.tags = json(metadata.tags);
  if (metadata.theme !== undefined) changes.theme = metadata.theme;
  if (metadata.category !== undefined) changes.category = metadata.category;
  if (metadata.halfProduct !== undefined) changes.half_product = metadata.halfProduct;
  if (metadata.capturedAt !== undefined) {
    changes.captured_at = metadata.capturedAt === null ? null : new Date(metadata.capturedAt).toISOString();
  }
  if (metadata.properties !== undefined) {
    changes.properties = json(mergeProperties(story.properties, metadata.properties));
  }
  return changes;
}

/** What the media jobs extract from a file (EXIF/IPTC/XMP, ffprobe, the perceptual hash). */
export interface ExtractedMetadata {
  title?: string;
  caption?: string;
  authors?: string[];
  source?: string;
  keywords?: string[];
  capturedAt?: string;
  gps?: Gps;
  width?: number;
  height?: number;
  duration?: number;
  perceptualHash?: string;
  mime?: string;
  /** Technical facts (camera, lens, codecs…) merged into properties where the key is absent. */
  properties?: Record<string, unknown>;
}

const isEmpty = (value: unknown) =>
  value === null || value === undefined || value === "" || (Array.isArray(value) && value.length === 0);

/** Fills the story's fields from extracted metadata only where they are empty: people's edits win. */
export function extractedChanges(
  story: Story,
  fields: ExtractedMetadata,
  json: (value: unknown) => string,
): StoryUpdate {
  if (fields.perceptualHash !== undefined && !PERCEPTUAL_HASH.test(fields.perceptualHash.toLowerCase())) {
    throw new Invalid("perceptualHash: must be 16 hex characters (64 bits)");
  }
  if (fields.capturedAt !== undefined && Number.isNaN(Date.parse(fields.capturedAt))) {
    throw new Invalid("capturedAt: must be an ISO-8601 date and time");
  }
  const changes: StoryUpdate = {};
  const fill = <K extends keyof ExtractedMetadata>(
    key: K,
    current: unknown,
    apply: (value: NonNullable<ExtractedMetadata[K]>) => void,
  ) => {
    const value = fields[key];
    if (!isEmpty(value) && isEmpty(current)) apply(value as NonNullable<ExtractedMetadata[K]>);
  };
  fill("title", story.title, (value) => (changes.title = value));
  fill("caption", story.caption, (value) => (changes.caption = value));
  fill("authors", story.authors, (value) => (changes.authors = json(value)));
  fill("source", story.source, (value) => (changes.source = value));
  fill("keywords", story.keywords, (value) => (changes.keywords = json(value)));
  fill("capturedAt", story.capturedAt, (value) => (changes.captured_at = new Date(value).toISOString()));
  fill("gps", story.gps, (value) => (changes.gps = json(value)));
  fill("width", story.width, (value) => (changes.width = value));
  fill("height", story.height, (value) => (changes.height = value));
  fill("duration", story.duration, (value) => (changes.duration = value));
  fill("perceptualHash", story.perceptualHash, (value) => (changes.perceptual_hash = value.toLowerCase()));
  fill("mime", story.mime, (value) => (changes.mime = value));
  if (fields.properties) {
    const added = Object.entries(fields.properties).filter(([key]) => !(key in story.properties));
    if (added.length > 0) changes.properties = json({ ...story.properties, ...Object.fromEntries(added) });
  }
  return changes;
}

/** One field an edit changed, as the story's action history records it. */
export interface FieldChange {
  /** `title`, `keywords`, `properties.credit`… */
  field: string;
  from: unknown;
  to: unknown;
}

/** Longer texts are cut in the history (a caption may hold 20 000 characters). */
const MAX_HISTORY_TEXT = 2000;

const forHistory = (value: unknown): unknown =>
  typeof value === "string" && value.length > MAX_HISTORY_TEXT ? `${value.slice(0, MAX_HISTORY_TEXT)}…` : value;

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The fields `metadata` changes on `story`, each from what to what; custom properties one key at a time. */
export function fieldChanges(story: Story, metadata: StoryMetadata): FieldChange[] {
  const changes: FieldChange[] = [];
  const add = (field: string, from: unknown, to: unknown) => {
    if (!same(from, to)) changes.push({ field, from: forHistory(from ?? null), to: forHistory(to ?? null) });
  };
  const fields = ["title", "caption", "authors", "source", "keywords", "tags", "theme", "category", "halfProduct"];
  for (const field of fields) {
    const value = metadata[field as keyof StoryMetadata];
    if (value !== undefined) add(field, story[field as keyof Story], value);
  }
  if (metadata.capturedAt !== undefined) {
    const to = metadata.capturedAt === null ? null : new Date(metadata.capturedAt).toISOString();
    const from = story.capturedAt === null ? null : new Date(story.capturedAt).toISOString();
    add("capturedAt", from, to);
  }
  for (const [key, value] of Object.entries(metadata.properties ?? {})) {
    add(`properties.${key}`, story.properties[key], value);
  }
  return changes;
}
