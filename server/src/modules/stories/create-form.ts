import type { FoldersService } from "../folders/folders.service.js";
import { type LibrariesService, MATERIAL_LIBRARY_ID } from "../libraries/libraries.service.js";
import type { UserSettingsService } from "../user-settings/user-settings.service.js";
import type { Actor, Story } from "./story-types.js";

export interface CreateForm {
  type: string;
  libraryId: string;
  libraryName: string;
  folderId: string | null;
  folderPath: { id: string; name: string }[];
  writable: boolean;
  uploadPath: string;
}

/**
 * What the create form of a story type needs: the target library and folder,
 * defaults filled in (a new video goes to the material library when the
 * caller can read it, anything else to their default library).
 */
export async function createForm(
  services: { settings: UserSettingsService; libraries: LibrariesService; folders: FoldersService },
  actor: Actor,
  type: Story["type"],
  query: { libraryId?: string; folderId?: string },
): Promise<CreateForm> {
  const { settings, libraries, folders } = services;
  let libraryId = query.libraryId;
  let folderId = query.folderId ?? null;
  if (!libraryId) {
    const preferred = await settings.defaultLibrary(actor);
    const videoDefault = type === "video" && (await libraries.canRead(actor, MATERIAL_LIBRARY_ID));
    libraryId = videoDefault ? MATERIAL_LIBRARY_ID : preferred.libraryId;
    folderId = videoDefault ? null : preferred.folderId;
  }
  const library = await libraries.require(actor, libraryId, "read");
  const folderPath = folderId ? await folders.path(libraryId, (await folders.require(libraryId, folderId)).id) : [];
  const level = (await libraries.readable(actor)).find((candidate) => candidate.id === libraryId)?.level;
  return {
    type,
    libraryId,
    libraryName: library.name,
    folderId,
    folderPath: folderPath.map((folder) => ({ id: folder.id, name: folder.name })),
    writable: level === "write" || level === "manage",
    uploadPath: "/dams/api/v1/uploads",
  };
}
