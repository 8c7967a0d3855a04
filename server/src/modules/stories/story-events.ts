import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

/** What happened to a story that automation may react to (the actions module's triggers). */
export type StoryEventKind = "committed" | "published" | "tagged";

export interface StoryEvent {
  kind: StoryEventKind;
  libraryId: string;
  storyId: string;
  /** Who did it; null for the system. */
  actorId: string | null;
  /** `tagged`: the tags the change added. */
  tags?: string[];
}

/**
 * Where story events go: written in the transaction of the change itself
 * (an outbox), so an event exists exactly when its change does, and nothing
 * reacts to it inside the request. The actions module's ActionTriggers
 * enqueues its evaluation job here.
 */
export interface StoryEventSink {
  record(transaction: Kysely<Database>, events: StoryEvent[]): Promise<void>;
}

/** The tags of `after` not in `before` (any case). */
export function addedTags(before: readonly string[], after: readonly string[] | undefined): string[] {
  if (!after) return [];
  const had = new Set(before.map((tag) => tag.toLowerCase()));
  return after.filter((tag) => !had.has(tag.toLowerCase()));
}
