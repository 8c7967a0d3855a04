import type { Db } from "../../db/database.js";
import { SharedCache } from "../../db/shared-cache.js";
import type { LibraryAccess } from "../access/library-access.js";
import { LibrariesRepository, type LibraryRecord } from "./libraries.repository.js";
import { LibrariesService } from "./libraries.service.js";
import { type LibrarySettingsDependencies, LibrarySettingsService } from "./library-settings.service.js";

/**
 * Builds the libraries service once (called by app.ts); grants come from the access module. With
 * `cacheTtlMs` (the access caches' lifetime, DAMS_AUTH_CACHE_SECONDS) the list of libraries is kept that
 * long, dropped on every node by the library settings' changes.
 */
export function buildLibraries(db: Db, access: LibraryAccess, cacheTtlMs = 0): LibrariesService {
  const kept =
    cacheTtlMs > 0
      ? new SharedCache<LibraryRecord[]>(db.notifications, "libraries", { ttlMs: cacheTtlMs, maxEntries: 1 })
      : undefined;
  return new LibrariesService(new LibrariesRepository(db), access, kept);
}

/** Builds the library administration once, after the folders (it checks default folders with them). */
export function buildLibrarySettings(
  db: Db,
  deps: Omit<LibrarySettingsDependencies, "db" | "libraries">,
): LibrarySettingsService {
  return new LibrarySettingsService({ ...deps, db, libraries: new LibrariesRepository(db) });
}
