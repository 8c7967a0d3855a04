import type { SharedCache } from "../../db/shared-cache.js";
import { Forbidden, NotFound } from "../../http/errors.js";
import type { LibraryAccess, LibraryUser } from "../access/library-access.js";
import type { LibraryLevel } from "../auth/permissions.js";
import type { LibrariesRepository, LibraryRecord } from "./libraries.repository.js";

/** The default library (spec section 3). */
export const DEFAULT_LIBRARY_ID = "product";
/** The material library: where downloads go and new videos are made (spec section 3). */
export const MATERIAL_LIBRARY_ID = "material";

export interface LibraryView extends LibraryRecord {
  /** The caller's level on the library. */
  level: LibraryLevel;
}

/** The key of the one entry of the libraries' cache: all of them, in display order. */
const ALL = "all";

/** Libraries and what a user may do in them; grants come from the access module. */
export class LibrariesService {
  constructor(
    private readonly libraries: LibrariesRepository,
    private readonly access: LibraryAccess,
    /**
     * Every library, kept a few seconds (every search asks which the caller reads) and dropped on every
     * node when one is created, edited, archived or deleted (`librariesChanged`).
     */
    private readonly kept?: SharedCache<LibraryRecord[]>,
  ) {}

  #all(): Promise<LibraryRecord[]> {
    return this.kept ? this.kept.get(ALL, () => this.libraries.all()) : this.libraries.all();
  }

  /** Drops the kept libraries on every node: the library settings call it after each change. */
  async librariesChanged(): Promise<void> {
    await this.kept?.invalidate(ALL);
  }

  /** Stops listening for other nodes' changes (the app is closing). */
  close(): void {
    this.kept?.close();
  }

  /** The libraries the user can read, in display order. */
  async readable(user: LibraryUser): Promise<LibraryView[]> {
    const libraries = await this.#all();
    const levels = await this.access.levelsOn(
      user,
      libraries.map((library) => library.id),
    );
    const views: LibraryView[] = [];
    for (const library of libraries) {
      const level = levels.get(library.id) ?? null;
      if (level !== null) views.push({ ...library, level });
    }
    return views;
  }

  async readableIds(user: LibraryUser): Promise<string[]> {
    return (await this.readable(user)).map((library) => library.id);
  }

  /**
   * The library, when it exists and the user holds `level` on it: 404 when
   * it does not exist or they cannot read it, 403 when they read it but need
   * more, or need to write into an archived library (it is read-only).
   */
  async require(user: LibraryUser, libraryId: string, level: LibraryLevel): Promise<LibraryRecord> {
    await this.access.require(user, libraryId, level);
    const library = await this.libraries.findById(libraryId);
    if (!library) throw new NotFound(`library ${libraryId} does not exist`, "library_not_found");
    if (level !== "read" && library.archivedAt !== null) {
      throw new Forbidden(`the library ${library.name} is archived: it is read-only`, "library_archived");
    }
    return library;
  }

  /**
   * The check of a route's declared library level (the auth hook): the
   * user's grants, and a write into an archived library refused (403).
   * Unlike `require`, a library without a row passes on its grants.
   */
  async checkLevel(user: LibraryUser, libraryId: string, level: LibraryLevel): Promise<void> {
    await this.access.require(user, libraryId, level);
    if (level === "read") return;
    const library = await this.libraries.findById(libraryId);
    if (library && library.archivedAt !== null) {
      throw new Forbidden(`the library ${library.name} is archived: it is read-only`, "library_archived");
    }
  }

  /**
   * Whether `checkLevel` is known to pass without waiting: a read the user's
   * kept levels allow (a write also asks whether the library is archived).
   */
  passesKnown(user: LibraryUser, libraryId: string, level: LibraryLevel): boolean {
    return level === "read" && this.access.knownToHold(user, libraryId, level);
  }

  async find(libraryId: string): Promise<LibraryRecord | undefined> {
    return this.libraries.findById(libraryId);
  }

  async canRead(user: LibraryUser, libraryId: string): Promise<boolean> {
    return this.access.check(user, libraryId, "read");
  }
}
