import type { Kysely, Updateable } from "kysely";
import type { Db } from "../../db/database.js";
import type { Database, LibraryKind, StoryType } from "../../db/schema.js";

export interface LibraryRecord {
  id: string;
  name: string;
  kind: LibraryKind;
  description: string | null;
  sort: number;
  /** When it was archived (no new stories), or null. */
  archivedAt: string | null;
}

/** What an administrator sets on a library (/manage/setting/library). */
export interface LibrarySettingsRecord extends LibraryRecord {
  defaultFolderId: string | null;
  /** The story types it accepts; null: every type. */
  storyTypes: StoryType[] | null;
  templateId: string | null;
  bucketId: string | null;
  createdAt: string;
  updatedAt: string | null;
}

export interface LibraryWrite {
  name: string;
  kind: LibraryKind;
  description: string | null;
  sort: number;
  defaultFolderId: string | null;
  storyTypes: StoryType[] | null;
  templateId: string | null;
  bucketId: string | null;
}

const BASE = ["id", "name", "kind", "description", "sort", "archived_at as archivedAt"] as const;

export class LibrariesRepository {
  constructor(
    private readonly db: Db,
    private readonly executor: Kysely<Database> = db.kysely,
  ) {}

  /** The same repository working inside a transaction. */
  with(executor: Kysely<Database>): LibrariesRepository {
    return new LibrariesRepository(this.db, executor);
  }

  async all(): Promise<LibraryRecord[]> {
    return this.executor.selectFrom("libraries").select(BASE).orderBy("sort").orderBy("id").execute();
  }

  async findById(id: string): Promise<LibraryRecord | undefined> {
    return this.executor.selectFrom("libraries").select(BASE).where("id", "=", id).executeTakeFirst();
  }

  async allSettings(): Promise<LibrarySettingsRecord[]> {
    const rows = await this.#settings().orderBy("sort").orderBy("id").execute();
    return rows.map((row) => this.#toSettings(row));
  }

  async settingsOf(id: string): Promise<LibrarySettingsRecord | undefined> {
    const row = await this.#settings().where("id", "=", id).executeTakeFirst();
    return row && this.#toSettings(row);
  }

  async insert(id: string, library: LibraryWrite, now: string): Promise<void> {
    await this.executor
      .insertInto("libraries")
      .values({ id, ...this.#columns(library), created_at: now, updated_at: now })
      .execute();
  }

  async update(id: string, library: LibraryWrite, now: string): Promise<void> {
    await this.#set(id, this.#columns(library), now);
  }

  async setArchived(id: string, archivedAt: string | null, now: string): Promise<void> {
    await this.#set(id, { archived_at: archivedAt }, now);
  }

  async setBucket(id: string, bucketId: string | null, now: string): Promise<void> {
    await this.#set(id, { bucket_id: bucketId }, now);
  }

  async #set(id: string, columns: Omit<Updateable<Database["libraries"]>, "updated_at">, now: string): Promise<void> {
    await this.executor
      .updateTable("libraries")
      .set({ ...columns, updated_at: now })
      .where("id", "=", id)
      .execute();
  }

  async delete(id: string): Promise<void> {
    await this.executor.deleteFrom("libraries").where("id", "=", id).execute();
  }

  #settings() {
    return this.executor
      .selectFrom("libraries")
      .select([...BASE, "default_folder_id", "story_types", "template_id", "bucket_id", "created_at", "updated_at"]);
  }

  #columns(library: LibraryWrite) {
    return {
      name: library.name,
      kind: library.kind,
      description: library.description,
      sort: library.sort,
      default_folder_id: library.defaultFolderId,
      story_types: library.storyTypes === null ? null : this.db.adapter.writeJson(library.storyTypes),
      template_id: library.templateId,
      bucket_id: library.bucketId,
    };
  }

  #toSettings(
    row: LibraryRecord & {
      default_folder_id: string | null;
      story_types: unknown;
      template_id: string | null;
      bucket_id: string | null;
      created_at: string;
      updated_at: string | null;
    },
  ): LibrarySettingsRecord {
    return {
      id: row.id,
      name: row.name,
      kind: row.kind,
      description: row.description,
      sort: row.sort,
      archivedAt: stamp(row.archivedAt),
      defaultFolderId: row.default_folder_id,
      storyTypes: row.story_types === null ? null : this.db.adapter.readJson<StoryType[]>(row.story_types),
      templateId: row.template_id,
      bucketId: row.bucket_id,
      createdAt: stamp(row.created_at) ?? "",
      updatedAt: stamp(row.updated_at),
    };
  }
}

/** PostgreSQL answers timestamptz as Date; SQLite as the ISO text written. */
function stamp(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value.toISOString() : String(value);
}
