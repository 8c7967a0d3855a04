import { Forbidden, Invalid, NotFound } from "../../http/errors.js";
import type { LibraryUser } from "../access/library-access.js";
import type { FoldersService } from "../folders/folders.service.js";
import { DEFAULT_LIBRARY_ID, type LibrariesService } from "../libraries/libraries.service.js";
import type { UserSettingsRepository } from "./user-settings.repository.js";

export interface DefaultLibrary {
  libraryId: string;
  folderId: string | null;
  /** The front area's route for it: /frontend/{library}[/{folderId}]. */
  path: string;
}

/** The enabled user behind an id (the users module's UsersService). */
export interface SettingsUsers {
  enabledUser(id: string): Promise<LibraryUser | undefined>;
}

export interface UserSettingsDependencies {
  settings: UserSettingsRepository;
  libraries: LibrariesService;
  folders: FoldersService;
  users: SettingsUsers;
  clock?: () => Date;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A user's own settings: the default library (and folder) that uploads and the front area open on. */
export class UserSettingsService {
  constructor(private readonly deps: UserSettingsDependencies) {}

  /** The saved default while the user can still read it; else `product`, or the first library they can read. */
  async defaultLibrary(user: LibraryUser): Promise<DefaultLibrary> {
    const settings = await this.deps.settings.find(user.id);
    if (settings?.defaultLibraryId && (await this.deps.libraries.canRead(user, settings.defaultLibraryId))) {
      return toDefault(settings.defaultLibraryId, settings.defaultFolderId);
    }
    const readable = await this.deps.libraries.readableIds(user);
    const libraryId = readable.includes(DEFAULT_LIBRARY_ID) ? DEFAULT_LIBRARY_ID : (readable[0] ?? DEFAULT_LIBRARY_ID);
    return toDefault(libraryId, null);
  }

  /** The default library of a user given by id (the upload sink knows only the id). */
  async defaultLibraryFor(userId: string): Promise<DefaultLibrary> {
    const user = await this.deps.users.enabledUser(userId);
    if (!user) throw new Forbidden("the account does not exist or is disabled");
    return this.defaultLibrary(user);
  }

  /** Saves `path` (`/frontend/{library}[/{folderId}]` or `{library}[/{folderId}]`) as the user's default. */
  async setDefaultLibrary(user: LibraryUser, path: string): Promise<DefaultLibrary> {
    const parts = path
      .replace(/^\/?(frontend\/)?/, "")
      .split("/")
      .filter(Boolean);
    if (parts.length < 1 || parts.length > 2)
      throw new Invalid("path: give /frontend/{library} or /frontend/{library}/{folderId}");
    const [libraryId, folderId] = parts as [string, string | undefined];
    if (folderId && !UUID.test(folderId)) throw new NotFound(`path: folder ${folderId} is not in library ${libraryId}`);
    await this.deps.libraries.require(user, libraryId, "read");
    if (folderId) await this.deps.folders.require(libraryId, folderId, "path");
    const now = (this.deps.clock?.() ?? new Date()).toISOString();
    await this.deps.settings.save(user.id, { defaultLibraryId: libraryId, defaultFolderId: folderId ?? null }, now);
    return toDefault(libraryId, folderId ?? null);
  }
}

function toDefault(libraryId: string, folderId: string | null): DefaultLibrary {
  return { libraryId, folderId, path: `/frontend/${libraryId}${folderId ? `/${folderId}` : ""}` };
}
