import { IPTC_TEXT_PROPERTIES } from "@shared/iptc";
import dayjs, { type Dayjs } from "dayjs";
import type { Story, StoryEdit } from "../../api/stories";
import type { PropertyField } from "../uploader/upload-logic";

/**
 * The IPTC fields edited as plain texts unless the catalogue defines a
 * property of the same name (then its kind and code list win).
 */
export const IPTC_PROPERTIES = IPTC_TEXT_PROPERTIES;

/** The dialog's form: the story's fields, capture time as a date, properties by name. */
export interface InformationValues {
  title: string;
  caption: string;
  authors: string[];
  source: string | null;
  keywords: string[];
  tags: string[];
  theme: string | null;
  category: string | null;
  capturedAt: Dayjs | null;
  properties: Record<string, unknown>;
}

const TEXT_FIELDS = ["title", "caption"] as const;
const LIST_FIELDS = ["authors", "keywords", "tags"] as const;
const SINGLE_FIELDS = ["source", "theme", "category"] as const;

/** The IPTC texts the form shows: those no custom property of the same name takes over. */
export function iptcKeys(fields: readonly PropertyField[]): string[] {
  const defined = new Set(fields.map((field) => field.name));
  return IPTC_PROPERTIES.filter((key) => !defined.has(key));
}

/** The form's values of a story. */
export function informationValues(story: Story, fields: readonly PropertyField[]): InformationValues {
  const properties: Record<string, unknown> = {};
  for (const key of iptcKeys(fields)) properties[key] = textOf(story.properties[key]);
  for (const field of fields) {
    const value = story.properties[field.name];
    properties[field.name] =
      field.kind === "date" && typeof value === "string" && value ? dayjs(value) : (value ?? undefined);
  }
  return {
    title: story.title,
    caption: story.caption,
    authors: story.authors,
    source: story.source,
    keywords: story.keywords,
    tags: story.tags,
    theme: story.theme,
    category: story.category,
    capturedAt: story.capturedAt ? dayjs(story.capturedAt) : null,
    properties,
  };
}

function textOf(value: unknown): string {
  return value === null || value === undefined ? "" : String(value);
}

/** A property's value as stored: dates as YYYY-MM-DD, texts trimmed, empty ones null (which removes the key). */
function storedProperty(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (dayjs.isDayjs(value)) return value.format("YYYY-MM-DD");
  if (typeof value === "string") return value.trim() === "" ? null : value.trim();
  if (Array.isArray(value)) return value.length === 0 ? null : value.map(String);
  return value;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * What the user changed, relative to the story the form was filled from:
 * only those fields are sent, so a save carries no stale copy of the rest.
 */
export function informationChanges(
  base: Story,
  values: Partial<InformationValues>,
  fields: readonly PropertyField[],
): StoryEdit {
  const changes: StoryEdit = {};
  for (const key of TEXT_FIELDS) {
    const value = values[key];
    if (value !== undefined && !same(value, base[key])) changes[key] = value;
  }
  for (const key of LIST_FIELDS) {
    const value = values[key];
    if (value !== undefined && !same(value, base[key])) changes[key] = value.map((item) => item.trim()).filter(Boolean);
  }
  for (const key of SINGLE_FIELDS) {
    const value = values[key];
    if (value === undefined) continue;
    const stored = value === null || value.trim() === "" ? null : value.trim();
    if (!same(stored, base[key])) changes[key] = stored;
  }
  if (values.capturedAt !== undefined) {
    const at = values.capturedAt ? values.capturedAt.toISOString() : null;
    const before = base.capturedAt ? new Date(base.capturedAt).toISOString() : null;
    if (at !== before) changes.capturedAt = at;
  }
  const properties: Record<string, unknown> = {};
  for (const key of [...iptcKeys(fields), ...fields.map((field) => field.name)]) {
    if (!values.properties || !(key in values.properties)) continue;
    const value = storedProperty(values.properties[key]);
    if (!same(value, base.properties[key])) properties[key] = value;
  }
  if (Object.keys(properties).length > 0) changes.properties = properties;
  return changes;
}

/** One field another person changed since the form was filled, with their value. */
export interface TheirChange {
  /** `title`, `keywords`, `properties.credit`… */
  field: string;
  value: string;
}

const shown = (value: unknown): string =>
  value === null || value === undefined ? "" : Array.isArray(value) ? value.join(", ") : String(value);

/** The fields that differ between the story the form was based on and the story as it is now. */
export function theirChanges(base: Story, current: Story): TheirChange[] {
  const changes: TheirChange[] = [];
  for (const key of [...TEXT_FIELDS, ...LIST_FIELDS, ...SINGLE_FIELDS, "capturedAt"] as const) {
    if (!same(base[key], current[key])) changes.push({ field: key, value: shown(current[key]) });
  }
  const keys = new Set([...Object.keys(base.properties), ...Object.keys(current.properties)]);
  for (const key of keys) {
    if (key === "lastVersion") continue;
    if (!same(base.properties[key], current.properties[key])) {
      changes.push({ field: `properties.${key}`, value: shown(current.properties[key]) });
    }
  }
  return changes;
}
