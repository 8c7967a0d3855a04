import type { Db } from "../../db/database.js";
import type { StoryType } from "../../db/schema.js";
import { Conflict, Invalid, NotFound } from "../../http/errors.js";
import { type AuditLog, auditChanges } from "../audit/audit-log.js";
import type { Actor } from "../auth/actor.js";
import type { LibrariesRepository, LibrarySettingsRecord, LibraryWrite } from "./libraries.repository.js";
import { DEFAULT_LIBRARY_ID, MATERIAL_LIBRARY_ID } from "./libraries.service.js";
import type { CreateLibraryInput, LibrarySettingsQuery, UpdateLibraryInput } from "./library-settings.schema.js";

/** The libraries the system itself needs (spec section 3): never archived or deleted. */
const BUILT_IN = new Set([DEFAULT_LIBRARY_ID, MATERIAL_LIBRARY_ID]);

/** How many stories a library holds (the stories module's StoryUsage answers). */
export interface LibraryUsage {
  storiesInLibrary(libraryId: string): Promise<number>;
  storiesPerLibrary(): Promise<Map<string, number>>;
}

/** A library's folders (the folders module's service answers; it is built after the libraries). */
export interface LibraryFolders {
  require(libraryId: string, folderId: string, field?: string): Promise<{ name: string }>;
}

export interface LibrarySettingsView extends Omit<LibrarySettingsRecord, "createdAt" | "updatedAt"> {
  defaultFolderName: string | null;
  storyCount: number;
  builtIn: boolean;
  createTime: string;
  updateTime: string | null;
}

/** Which storage targets exist (the storage module's StorageTargetsService answers; built after the libraries). */
export interface LibraryBuckets {
  /** Throws 400 naming the field when no target has the id. */
  require(id: string, field?: string): Promise<unknown>;
}

export interface LibrarySettingsDependencies {
  db: Db;
  /** Absent until the storage module is built: then only the default storage (null) is accepted. */
  buckets?: () => LibraryBuckets | undefined;
  libraries: LibrariesRepository;
  folders: LibraryFolders;
  usage: LibraryUsage;
  audit: AuditLog;
  /** Told after every change of a library (LibrariesService drops the libraries it keeps, on every node). */
  changed?: { librariesChanged(): Promise<void> };
  clock?: () => Date;
}

/** Where a new story goes in its library, from one read of the library's row. */
export interface NewStoryPlace {
  folderId: string | null;
  /** Where its new originals go (null: the default target); undefined when the library does not exist. */
  bucketId?: string | null;
}

/** What new stories of a library are held to: its accepted types and its default folder. */
export interface NewStoryRules {
  /**
   * Throws when the library is archived or does not take the type; answers the folder to use and,
   * from the same row, the library's bucket, so an ingest need not read the row again to place the file.
   */
  placeForNewStory(libraryId: string, type: StoryType, folderId: string | null): Promise<NewStoryPlace>;
}

/**
 * Creating, editing, archiving and deleting libraries (/manage/setting/library).
 * Every change is recorded in the operation log in its own transaction.
 */
export class LibrarySettingsService implements NewStoryRules {
  constructor(private readonly deps: LibrarySettingsDependencies) {}

  async list(query: LibrarySettingsQuery): Promise<{ content: LibrarySettingsView[]; total: number }> {
    const keyword = query.keyword?.trim().toLowerCase();
    const counts = await this.deps.usage.storiesPerLibrary();
    const rows = (await this.deps.libraries.allSettings()).filter(
      (row) =>
        (!keyword || row.name.toLowerCase().includes(keyword) || row.id.toLowerCase().includes(keyword)) &&
        (query.archived === undefined || (row.archivedAt !== null) === query.archived),
    );
    const slice = rows.slice(query.page * query.size, (query.page + 1) * query.size);
    const content = await Promise.all(slice.map((row) => this.#view(row, counts.get(row.id) ?? 0)));
    return { content, total: rows.length };
  }

  async get(libraryId: string): Promise<LibrarySettingsView> {
    const row = await this.#require(libraryId);
    return this.#view(row, await this.deps.usage.storiesInLibrary(libraryId));
  }

  async create(actor: Actor, input: CreateLibraryInput): Promise<LibrarySettingsView> {
    if (await this.deps.libraries.findById(input.id)) {
      throw new Conflict(`id: a library with the code ${input.id} already exists`, "library_code_taken");
    }
    if (input.defaultFolderId) {
      throw new Invalid("defaultFolderId: a new library has no folders yet; set it once it has", "invalid_folder");
    }
    await this.#checkBucket(input.bucketId);
    const { id, ...fields } = input;
    const now = this.#now();
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      await this.deps.libraries.with(trx).insert(id, this.#write(fields), now);
      await this.deps.audit.record(trx, actor, {
        action: "library.create",
        target: { type: "library", id, label: input.name },
        after: { ...fields },
      });
    });
    await this.deps.changed?.librariesChanged();
    return this.get(id);
  }

  async update(actor: Actor, libraryId: string, input: UpdateLibraryInput): Promise<LibrarySettingsView> {
    const before = await this.#require(libraryId);
    if (input.defaultFolderId) await this.deps.folders.require(libraryId, input.defaultFolderId, "defaultFolderId");
    if (BUILT_IN.has(libraryId) && input.kind !== before.kind) {
      throw new Invalid(`kind: the kind of the built-in library ${libraryId} does not change`, "built_in_library");
    }
    await this.#checkBucket(input.bucketId);
    const now = this.#now();
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      await this.deps.libraries.with(trx).update(libraryId, this.#write(input), now);
      await this.deps.audit.record(trx, actor, {
        action: "library.edit",
        target: { type: "library", id: libraryId, label: input.name },
        ...auditChanges(before, input),
      });
    });
    await this.deps.changed?.librariesChanged();
    return this.get(libraryId);
  }

  /** Archived: readable as before, but no new stories and no edits (LibrariesService.require). */
  async setArchived(actor: Actor, libraryId: string, archived: boolean): Promise<LibrarySettingsView> {
    const library = await this.#require(libraryId);
    if (archived && BUILT_IN.has(libraryId)) {
      throw new Conflict(
        `the library ${library.name} is built in and cannot be archived`,
        "built_in_library",
      ).withMessageCode("library.builtIn", { name: library.name });
    }
    if ((library.archivedAt !== null) !== archived) {
      const now = this.#now();
      await this.deps.db.kysely.transaction().execute(async (trx) => {
        await this.deps.libraries.with(trx).setArchived(libraryId, archived ? now : null, now);
        await this.deps.audit.record(trx, actor, {
          action: archived ? "library.archive" : "library.restore",
          target: { type: "library", id: libraryId, label: library.name },
        });
      });
      await this.deps.changed?.librariesChanged();
    }
    return this.get(libraryId);
  }

  /** Deletes a library that holds no story (its folders go with it); refused with the count otherwise. */
  async delete(actor: Actor, libraryId: string): Promise<void> {
    const library = await this.#require(libraryId);
    if (BUILT_IN.has(libraryId)) {
      throw new Conflict(
        `the library ${library.name} is built in and cannot be deleted`,
        "built_in_library",
      ).withMessageCode("library.builtIn", { name: library.name });
    }
    const count = await this.deps.usage.storiesInLibrary(libraryId);
    if (count > 0) {
      throw new Conflict(
        `the library ${library.name} holds ${count} ${count === 1 ? "story" : "stories"}; move or delete them first`,
        "library_not_empty",
      ).withMessageCode("library.hasStories", { name: library.name, count });
    }
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      await this.deps.libraries.with(trx).delete(libraryId);
      await this.deps.audit.record(trx, actor, {
        action: "library.delete",
        target: { type: "library", id: libraryId, label: library.name },
        before: { name: library.name, kind: library.kind },
      });
    });
    await this.deps.changed?.librariesChanged();
  }

  /** Every library with its storage target (the storage module's view). */
  async storageList(): Promise<{ id: string; name: string; bucketId: string | null }[]> {
    return (await this.deps.libraries.allSettings()).map(({ id, name, bucketId }) => ({ id, name, bucketId }));
  }

  async storageOf(libraryId: string): Promise<{ id: string; name: string; bucketId: string | null }> {
    const { id, name, bucketId } = await this.#require(libraryId);
    return { id, name, bucketId };
  }

  /** Where the library's new originals go (null: the default target); the storage module checked the target. */
  async setBucket(actor: Actor, libraryId: string, bucketId: string | null): Promise<void> {
    const library = await this.#require(libraryId);
    if (library.bucketId === bucketId) return;
    const now = this.#now();
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      await this.deps.libraries.with(trx).setBucket(libraryId, bucketId, now);
      await this.deps.audit.record(trx, actor, {
        action: "library.edit",
        target: { type: "library", id: libraryId, label: library.name },
        before: { bucketId: library.bucketId },
        after: { bucketId },
      });
    });
  }

  async placeForNewStory(libraryId: string, type: StoryType, folderId: string | null): Promise<NewStoryPlace> {
    const library = await this.deps.libraries.settingsOf(libraryId);
    if (!library) return { folderId };
    if (library.archivedAt !== null) {
      throw new Conflict(`the library ${library.name} is archived and takes no new stories`, "library_archived");
    }
    if (library.storyTypes && !library.storyTypes.includes(type)) {
      throw new Invalid(
        `type: the library ${library.name} takes ${library.storyTypes.join(", ")} stories, not ${type}`,
        "type_not_allowed",
      );
    }
    const place = { folderId, bucketId: library.bucketId };
    if (folderId !== null || library.defaultFolderId === null) return place;
    const defaultFolderExists = (await this.#folderName(libraryId, library.defaultFolderId)) !== null;
    return { ...place, folderId: defaultFolderExists ? library.defaultFolderId : null };
  }

  async #view(row: LibrarySettingsRecord, storyCount: number): Promise<LibrarySettingsView> {
    const { createdAt, updatedAt, ...rest } = row;
    const defaultFolderName = row.defaultFolderId ? await this.#folderName(row.id, row.defaultFolderId) : null;
    return {
      ...rest,
      // A deleted folder is no default.
      defaultFolderId: defaultFolderName === null ? null : row.defaultFolderId,
      defaultFolderName,
      storyCount,
      builtIn: BUILT_IN.has(row.id),
      createTime: createdAt,
      updateTime: updatedAt,
    };
  }

  async #folderName(libraryId: string, folderId: string): Promise<string | null> {
    try {
      return (await this.deps.folders.require(libraryId, folderId)).name;
    } catch (error) {
      if (error instanceof NotFound) return null;
      throw error;
    }
  }

  async #require(libraryId: string): Promise<LibrarySettingsRecord> {
    const library = await this.deps.libraries.settingsOf(libraryId);
    if (!library) throw new NotFound(`library ${libraryId} does not exist`, "library_not_found");
    return library;
  }

  #write(input: UpdateLibraryInput): LibraryWrite {
    return {
      name: input.name,
      kind: input.kind,
      description: input.description,
      sort: input.sort,
      defaultFolderId: input.defaultFolderId,
      storyTypes: input.storyTypes,
      templateId: input.templateId,
      bucketId: input.bucketId,
    };
  }

  /** A storage target that exists, or null: the default one. */
  async #checkBucket(bucketId: string | null): Promise<void> {
    if (bucketId === null) return;
    const buckets = this.deps.buckets?.();
    if (!buckets) throw new Invalid(`bucketId: no storage target has the id ${bucketId}`, "invalid_bucket");
    await buckets.require(bucketId, "bucketId");
  }

  #now(): string {
    return (this.deps.clock?.() ?? new Date()).toISOString();
  }
}
