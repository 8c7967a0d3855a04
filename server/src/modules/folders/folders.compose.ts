import type { Db } from "../../db/database.js";
import type { LibrariesService } from "../libraries/libraries.service.js";
import { FoldersRepository } from "./folders.repository.js";
import { FoldersService, type FolderUsage } from "./folders.service.js";

/** Builds the folders service once (called by app.ts); `usage` says whether stories are filed in a folder. */
export function buildFolders(db: Db, deps: { libraries: LibrariesService; usage: FolderUsage }): FoldersService {
  return new FoldersService(new FoldersRepository(db), deps.libraries, deps.usage);
}
