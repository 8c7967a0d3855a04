import type { Story } from "../../stories/story-types.js";
import { MAPPING_TARGETS } from "../channels.schema.js";

export type MappingTarget = (typeof MAPPING_TARGETS)[number];

/** Where each field of an item comes from unless the channel maps it otherwise. */
export const DEFAULT_MAPPING: Partial<Record<MappingTarget, string>> = {
  headline: "title",
  description: "caption",
  byline: "authors",
  copyrightnotice: "source",
};

function text(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) return value.map(String).join(", ") || undefined;
  if (typeof value === "object") return JSON.stringify(value);
  const string = String(value).trim();
  return string || undefined;
}

/**
 * A story field (`title`, `authors`, `properties.credit`…) as text, or undefined when empty or when it is a
 * custom property in `hidden` (field-level access: one the receiver may not see, docs/property-access.md).
 */
export function storyField(story: Story, source: string, hidden: ReadonlySet<string>): string | undefined {
  if (source.startsWith("properties.")) {
    const key = source.slice("properties.".length);
    return hidden.has(key) ? undefined : text(story.properties[key]);
  }
  return text((story as unknown as Record<string, unknown>)[source]);
}

/** The mapped text fields of an item: the channel's mapping over the defaults, no hidden property among them. */
export function mappedFields(
  context: Pick<ItemContext, "story" | "mapping" | "hidden">,
): Partial<Record<MappingTarget, string>> {
  const { story, mapping, hidden } = context;
  const result: Partial<Record<MappingTarget, string>> = {};
  for (const target of MAPPING_TARGETS) {
    const source = mapping[target] ?? DEFAULT_MAPPING[target];
    const value = source ? storyField(story, source, hidden) : undefined;
    if (value !== undefined) result[target] = value;
  }
  return result;
}

/** What the formats are given: the story, the files that go with it, and the delivery's facts. */
export interface ItemContext {
  story: Story;
  deliveryId: string;
  action: "publish" | "kill";
  mapping: Record<string, string>;
  /**
   * The custom properties the receiver may not see (a delivery: its publisher's, delivery.job): no format
   * writes them, whatever the mapping says.
   */
  hidden: ReadonlySet<string>;
  embargoUntil: string | null;
  files: { name: string; mime: string; size: number; width: number | null; height: number | null; role: string }[];
  /** When the item is made (versioncreated of a kill). */
  now: string;
}

export const NINJS_TYPE: Record<Story["type"], string> = {
  photo: "picture",
  video: "video",
  audio: "audio",
  composite: "composite",
};

export function storyUri(story: Story): string {
  return `urn:dams:story:${story.id}`;
}
