import { NotFound } from "../../http/errors.js";
import type { LibraryAccess, LibraryUser } from "../access/library-access.js";
import type { LibraryLevel } from "../access/permissions.js";
import type { LibrariesRepository, LibraryRecord } from "./libraries.repository.js";

/** The default library (spec section 3) and the download library. */
export const DEFAULT_LIBRARY_ID = "product";
export const DOWNLOAD_LIBRARY_ID = "material";

export interface LibraryView extends LibraryRecord {
  /** The caller's level on the library. */
  level: LibraryLevel;
}

/** Libraries and what a user may do in them; grants come from the access module. */
export class LibrariesService {
  constructor(
    private readonly libraries: LibrariesRepository,
    private readonly access: LibraryAccess,
  ) {}

  /** The libraries the user can read, in display order. */
  async readable(user: LibraryUser): Promise<LibraryView[]> {
    const views: LibraryView[] = [];
    for (const library of await this.libraries.all()) {
      const level = await this.access.levelOn(user, library.id);
      if (level !== null) views.push({ ...library, level });
    }
    return views;
  }

  async readableIds(user: LibraryUser): Promise<string[]> {
    return (await this.readable(user)).map((library) => library.id);
  }

  /**
   * The library, when it exists and the user holds `level` on it: 404 when
   * it does not exist or they cannot read it, 403 when they read it but need more.
   */
  async require(user: LibraryUser, libraryId: string, level: LibraryLevel): Promise<LibraryRecord> {
    await this.access.require(user, libraryId, level);
    const library = await this.libraries.findById(libraryId);
    if (!library) throw new NotFound(`library ${libraryId} does not exist`, "library_not_found");
    return library;
  }

  async find(libraryId: string): Promise<LibraryRecord | undefined> {
    return this.libraries.findById(libraryId);
  }

  async canRead(user: LibraryUser, libraryId: string): Promise<boolean> {
    return this.access.check(user, libraryId, "read");
  }
}
