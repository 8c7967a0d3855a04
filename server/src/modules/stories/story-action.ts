import type { AuditEntry } from "../audit/audit-log.js";
import type { NewStoryAction, StoryActionName } from "./story-actions.repository.js";
import type { Actor, Story } from "./story-types.js";

/** Who did it: a caller, or null for the system (the media jobs). */
export type ActionBy = Pick<Actor, "id" | "username" | "ip"> | null;

/** The one builder of story actions: what `by` did to `story`, with details. */
export function storyAction(
  by: ActionBy,
  story: Pick<Story, "libraryId" | "id">,
  action: StoryActionName,
  details?: Record<string, unknown>,
): NewStoryAction {
  return {
    libraryId: story.libraryId,
    storyId: story.id,
    userId: by?.id ?? null,
    username: by?.username ?? null,
    action,
    ip: by?.ip ?? null,
    details,
  };
}

/**
 * The operation log's entry of a change to `story`: action `story.<verb>`,
 * the story as target (its title as label), the library among the details.
 */
export function storyAudit(
  story: Pick<Story, "libraryId" | "id"> & { title?: string },
  verb: string,
  entry: Omit<AuditEntry, "action" | "target"> = {},
): AuditEntry {
  return {
    ...entry,
    action: `story.${verb}`,
    target: { type: "story", id: story.id, label: story.title ?? null },
    details: { libraryId: story.libraryId, ...entry.details },
  };
}
