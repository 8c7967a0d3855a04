import type { Db } from "../../db/database.js";
import type { LibraryAccess } from "../access/library-access.js";
import { LibrariesRepository } from "./libraries.repository.js";
import { LibrariesService } from "./libraries.service.js";
import { type LibrarySettingsDependencies, LibrarySettingsService } from "./library-settings.service.js";

/** Builds the libraries service once (called by app.ts); grants come from the access module. */
export function buildLibraries(db: Db, access: LibraryAccess): LibrariesService {
  return new LibrariesService(new LibrariesRepository(db), access);
}

/** Builds the library administration once, after the folders (it checks default folders with them). */
export function buildLibrarySettings(
  db: Db,
  deps: Omit<LibrarySettingsDependencies, "db" | "libraries">,
): LibrarySettingsService {
  return new LibrarySettingsService({ ...deps, db, libraries: new LibrariesRepository(db) });
}
