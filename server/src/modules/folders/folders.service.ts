import { Conflict, Invalid, NotFound } from "../../http/errors.js";
import type { LibrariesService } from "../libraries/libraries.service.js";
import type { FolderRecord, FoldersRepository } from "./folders.repository.js";

export interface FolderNode extends FolderRecord {
  children: FolderNode[];
}

export interface CreateFolderInput {
  name: string;
  parentId?: string | null;
  sort?: number;
}

export interface UpdateFolderInput {
  name?: string;
  /** null moves the folder to the library's root. */
  parentId?: string | null;
  sort?: number;
}

/**
 * Whether stories are filed in a folder (a folder holding any is not
 * deleted). The stories module's StoryUsage answers; the folders module does
 * not read the stories table.
 */
export interface FolderUsage {
  folderHoldsStories(folderId: string): Promise<boolean>;
}

/** Folder trees inside a library. Library access is checked by the route (config.library). */
export class FoldersService {
  constructor(
    private readonly folders: FoldersRepository,
    private readonly libraries: LibrariesService,
    private readonly usage: FolderUsage,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async tree(libraryId: string): Promise<FolderNode[]> {
    const rows = await this.folders.inLibrary(libraryId);
    const nodes = new Map(rows.map((row) => [row.id, { ...row, children: [] as FolderNode[] }]));
    const roots: FolderNode[] = [];
    for (const node of nodes.values()) {
      const parent = node.parentId ? nodes.get(node.parentId) : undefined;
      (parent ? parent.children : roots).push(node);
    }
    return roots;
  }

  /** The folder, or NotFound naming the field it came from. */
  async require(libraryId: string, folderId: string, field = "folderId"): Promise<FolderRecord> {
    const folder = await this.folders.find(libraryId, folderId);
    if (!folder) throw new NotFound(`${field}: folder ${folderId} is not in library ${libraryId}`, "folder_not_found");
    return folder;
  }

  /** The folder's path from the root, as names. */
  async path(libraryId: string, folderId: string): Promise<FolderRecord[]> {
    const rows = new Map((await this.folders.inLibrary(libraryId)).map((row) => [row.id, row]));
    const path: FolderRecord[] = [];
    for (let folder = rows.get(folderId); folder; folder = folder.parentId ? rows.get(folder.parentId) : undefined) {
      path.unshift(folder);
    }
    return path;
  }

  async create(libraryId: string, input: CreateFolderInput, userId: string): Promise<FolderRecord> {
    // Administrators pass the access check for any id; the library must still exist.
    if (!(await this.libraries.find(libraryId))) throw new NotFound(`library ${libraryId} does not exist`);
    const parentId = input.parentId ?? null;
    if (parentId !== null) await this.require(libraryId, parentId, "parentId");
    await this.#requireFreeName(libraryId, parentId, input.name);
    const id = await this.folders.insert(
      { libraryId, parentId, name: input.name, sort: input.sort ?? 0, createdBy: userId },
      this.clock().toISOString(),
    );
    return (await this.folders.find(libraryId, id))!;
  }

  async update(libraryId: string, folderId: string, input: UpdateFolderInput): Promise<FolderRecord> {
    const folder = await this.require(libraryId, folderId);
    const parentId = input.parentId === undefined ? folder.parentId : input.parentId;
    const name = input.name ?? folder.name;
    if (parentId !== null && parentId !== folder.parentId) {
      await this.require(libraryId, parentId, "parentId");
      const ancestors = await this.path(libraryId, parentId);
      if (ancestors.some((ancestor) => ancestor.id === folderId)) {
        throw new Invalid("parentId: a folder cannot move into itself or one of its sub-folders", "folder_cycle");
      }
    }
    if (parentId !== folder.parentId || name !== folder.name) {
      await this.#requireFreeName(libraryId, parentId, name, folderId);
    }
    await this.folders.update(
      folderId,
      { name, parentId, sort: input.sort ?? folder.sort },
      this.clock().toISOString(),
    );
    return (await this.folders.find(libraryId, folderId))!;
  }

  async delete(libraryId: string, folderId: string): Promise<void> {
    await this.require(libraryId, folderId);
    if (await this.folders.hasChildren(folderId)) {
      throw new Conflict("the folder has sub-folders: delete or move them first", "folder_not_empty").withMessageCode(
        "folder.hasChildren",
      );
    }
    if (await this.usage.folderHoldsStories(folderId)) {
      throw new Conflict("the folder holds stories: move or delete them first", "folder_not_empty").withMessageCode(
        "folder.hasStories",
      );
    }
    await this.folders.delete(folderId);
  }

  async #requireFreeName(libraryId: string, parentId: string | null, name: string, self?: string): Promise<void> {
    const existing = await this.folders.siblingNamed(libraryId, parentId, name);
    if (existing !== undefined && existing !== self) {
      throw new Conflict(`name: a folder named ${name} already exists here`, "folder_name_taken").withMessageCode(
        "folder.nameTaken",
        { name },
      );
    }
  }
}
