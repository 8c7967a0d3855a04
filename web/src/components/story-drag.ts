/**
 * Dragging stories from a grid or list onto a folder: the card puts its story
 * on the drag under our own type (other pages' drops ignore it); a folder
 * reads it back. The drop target decides whether the selection goes along.
 */
import type { DragEvent } from "react";

export const STORY_DRAG_TYPE = "application/x-dams-story";

export interface DraggedStory {
  libraryId: string;
  storyId: string;
  type: string;
}

export function startStoryDrag(event: DragEvent, story: DraggedStory): void {
  event.dataTransfer.setData(
    STORY_DRAG_TYPE,
    JSON.stringify({ libraryId: story.libraryId, storyId: story.storyId, type: story.type }),
  );
  event.dataTransfer.effectAllowed = "move";
}

/** Whether the drag carries a story (its data is readable only on drop; its type is known while over). */
export const carriesStory = (event: DragEvent): boolean => event.dataTransfer.types.includes(STORY_DRAG_TYPE);

export function droppedStory(event: DragEvent): DraggedStory | null {
  const raw = event.dataTransfer.getData(STORY_DRAG_TYPE);
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<DraggedStory>;
    return typeof value.libraryId === "string" && typeof value.storyId === "string" && typeof value.type === "string"
      ? { libraryId: value.libraryId, storyId: value.storyId, type: value.type }
      : null;
  } catch {
    return null;
  }
}
