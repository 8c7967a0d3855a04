import type { Story } from "../stories/story-types.js";
import type { RuleConditions } from "./actions.schema.js";

const lower = (values: readonly string[]) => new Set(values.map((value) => value.trim().toLowerCase()));
const anyOf = (wanted: readonly string[], held: readonly string[]) => {
  const have = lower(held);
  return wanted.some((value) => have.has(value.trim().toLowerCase()));
};

/**
 * Whether a story event meets a rule's conditions: each one given must hold
 * (AND); a list holds when any of its values does (OR). Tags of a `tagged`
 * event are the tags the change added; otherwise the story's.
 */
export function meetsConditions(
  conditions: RuleConditions,
  story: Pick<Story, "libraryId" | "type" | "tags" | "keywords" | "title" | "caption" | "authors">,
  addedTags?: readonly string[],
): boolean {
  if (conditions.libraryIds?.length && !conditions.libraryIds.includes(story.libraryId)) return false;
  if (conditions.types?.length && !conditions.types.includes(story.type)) return false;
  if (conditions.tags?.length && !anyOf(conditions.tags, addedTags ?? story.tags)) return false;
  if (conditions.authors?.length && !anyOf(conditions.authors, story.authors)) return false;
  if (conditions.keyword) {
    const needle = conditions.keyword.toLowerCase();
    const haystack = [story.title, story.caption, ...story.keywords].map((text) => text.toLowerCase());
    if (!haystack.some((text) => text.includes(needle))) return false;
  }
  return true;
}
