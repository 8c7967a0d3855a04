/**
 * Spec section 6: the 'permissionId.action' checks of the story actions, as
 * the server declares them (docs/stories.md, "Who may do what").
 */
export const STORY_ACCESS = {
  download: "upload.download.get",
  edit: "story.list.edit",
  delete: "story.list.delete",
  publish: "story.list.update",
  share: "share.netdisk.add",
  commit: "story.list.add",
} as const;

/** Groups story references by library: the zip route takes the ids of one library, at most `max` at a time. */
export function zipBatches(
  refs: readonly { libraryId: string; storyId: string }[],
  max: number,
): { libraryId: string; storyIds: string[] }[] {
  const byLibrary = new Map<string, string[]>();
  for (const ref of refs) {
    const ids = byLibrary.get(ref.libraryId) ?? [];
    if (!ids.includes(ref.storyId)) ids.push(ref.storyId);
    byLibrary.set(ref.libraryId, ids);
  }
  const batches: { libraryId: string; storyIds: string[] }[] = [];
  for (const [libraryId, ids] of byLibrary) {
    for (let start = 0; start < ids.length; start += max)
      batches.push({ libraryId, storyIds: ids.slice(start, start + max) });
  }
  return batches;
}
