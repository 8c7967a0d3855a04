import { Invalid } from "../../http/errors.js";
import type { LibraryUser } from "../access/library-access.js";
import type { FoldersService } from "../folders/folders.service.js";
import type { StoryAccess } from "./story-access.js";

/** The folder a story is put in: null for the library's root, else one of the library's (404 otherwise). */
export async function folderFor(
  folders: FoldersService,
  libraryId: string,
  folderId: string | null | undefined,
): Promise<string | null> {
  if (!folderId) return null;
  await folders.require(libraryId, folderId);
  return folderId;
}

/** A composite's members: stories the caller can read, none of them a composite, each once, in order. */
export async function readableMembers(
  access: StoryAccess,
  actor: LibraryUser,
  members: { libraryId: string; storyId: string }[],
): Promise<string[]> {
  const ids: string[] = [];
  for (const [index, member] of members.entries()) {
    const story = await access.forRead(actor, member.libraryId, member.storyId, `members.${index}`);
    if (story.type === "composite") throw new Invalid(`members.${index}: a composite cannot hold a composite`);
    if (!ids.includes(story.id)) ids.push(story.id);
  }
  return ids;
}
