import type { TemplateValues } from "../metadata-templates/metadata-templates.schema.js";
import type { StoryEdit } from "../stories/stories.service.js";
import type { Story } from "../stories/story-types.js";
import { type BatchOperation, IPTC_FIELDS, type IptcField, type ListField } from "./story-batch.schema.js";

/** What the operations work on: a story's editable texts and lists, and the properties they set. */
interface Working {
  title: string;
  caption: string;
  source: string | null;
  theme: string | null;
  category: string | null;
  keywords: string[];
  tags: string[];
  authors: string[];
  /** Custom properties set by the operations (null: removed). */
  properties: Record<string, unknown>;
}

/** A template operation's values, resolved for the story's library (variables replaced). */
export type TemplateValuesOf = (templateId: string) => TemplateValues;

const lower = (value: string) => value.toLocaleLowerCase();

/** `held` with `added` appended, those it holds already (in any case) left out. */
export function appended(held: readonly string[], added: readonly string[]): string[] {
  const seen = new Set(held.map(lower));
  const result = [...held];
  for (const value of added) {
    if (seen.has(lower(value))) continue;
    seen.add(lower(value));
    result.push(value);
  }
  return result;
}

/** `held` without `removed` (matched in any case). */
export function removed(held: readonly string[], gone: readonly string[]): string[] {
  const drop = new Set(gone.map(lower));
  return held.filter((value) => !drop.has(lower(value)));
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Every occurrence of the literal `find` replaced (`matchCase` false: in any case). */
export function replacedText(text: string, find: string, replacement: string, matchCase: boolean): string {
  if (matchCase) return text.split(find).join(replacement);
  return text.replace(new RegExp(escapeRegExp(find), "giu"), () => replacement);
}

const isIptc = (field: string): field is IptcField => (IPTC_FIELDS as readonly string[]).includes(field);

function apply(working: Working, operation: BatchOperation, templateValues: TemplateValuesOf): void {
  switch (operation.op) {
    case "set":
      if (isIptc(operation.field))
        working.properties[operation.field] = operation.value === "" ? null : operation.value;
      else if (operation.field === "title" || operation.field === "caption") working[operation.field] = operation.value;
      else working[operation.field] = operation.value.trim() === "" ? null : operation.value.trim();
      return;
    case "setProperty":
      working.properties[operation.name] = operation.value;
      return;
    case "add":
      working[operation.field] = appended(working[operation.field], operation.values);
      return;
    case "remove":
      working[operation.field] = removed(working[operation.field], operation.values);
      return;
    case "replace":
      working[operation.field] = replacedText(
        working[operation.field],
        operation.find,
        operation.replace,
        operation.matchCase,
      );
      return;
    case "template": {
      // As a rule's template step applies one: texts set, lists added to.
      const values = templateValues(operation.templateId);
      for (const field of ["title", "caption", "source", "theme", "category"] as const) {
        if (values[field]) working[field] = values[field];
      }
      for (const field of ["keywords", "tags", "authors"] as const satisfies readonly ListField[]) {
        if (values[field]?.length) working[field] = appended(working[field], values[field]);
      }
      for (const [key, value] of Object.entries(values.properties ?? {})) working.properties[key] = value;
      return;
    }
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The edit the operations make of `story`, applied in order: only the fields
 * whose value ends up different (an empty edit: the story stays as it is).
 */
export function batchEdit(
  story: Story,
  operations: readonly BatchOperation[],
  templateValues: TemplateValuesOf,
): StoryEdit {
  const working: Working = {
    title: story.title,
    caption: story.caption,
    source: story.source,
    theme: story.theme,
    category: story.category,
    keywords: [...story.keywords],
    tags: [...story.tags],
    authors: [...story.authors],
    properties: {},
  };
  for (const operation of operations) apply(working, operation, templateValues);
  const patch: StoryEdit = {};
  for (const field of ["title", "caption", "source", "theme", "category"] as const) {
    if (!same(working[field], story[field])) (patch as Record<string, unknown>)[field] = working[field];
  }
  for (const field of ["keywords", "tags", "authors"] as const) {
    if (!same(working[field], story[field])) patch[field] = working[field];
  }
  const properties = Object.entries(working.properties).filter(([key, value]) => !same(value, story.properties[key]));
  if (properties.length > 0) patch.properties = Object.fromEntries(properties);
  return patch;
}
