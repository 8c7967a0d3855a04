import { randomUUID } from "node:crypto";
import type { Db } from "../../db/database.js";

export interface FolderRecord {
  id: string;
  libraryId: string;
  parentId: string | null;
  name: string;
  sort: number;
  createdAt: string;
  updatedAt: string;
}

export interface NewFolder {
  libraryId: string;
  parentId: string | null;
  name: string;
  sort: number;
  createdBy: string;
}

export class FoldersRepository {
  constructor(private readonly db: Db) {}

  #select() {
    return this.db.kysely
      .selectFrom("folders")
      .select([
        "id",
        "library_id as libraryId",
        "parent_id as parentId",
        "name",
        "sort",
        "created_at as createdAt",
        "updated_at as updatedAt",
      ]);
  }

  async inLibrary(libraryId: string): Promise<FolderRecord[]> {
    return this.#select().where("library_id", "=", libraryId).orderBy("sort").orderBy("name").execute();
  }

  async find(libraryId: string, id: string): Promise<FolderRecord | undefined> {
    return this.#select().where("library_id", "=", libraryId).where("id", "=", id).executeTakeFirst();
  }

  async siblingNamed(libraryId: string, parentId: string | null, name: string): Promise<string | undefined> {
    let query = this.db.kysely
      .selectFrom("folders")
      .select("id")
      .where("library_id", "=", libraryId)
      .where("name", "=", name);
    query = parentId === null ? query.where("parent_id", "is", null) : query.where("parent_id", "=", parentId);
    return (await query.executeTakeFirst())?.id;
  }

  async insert(folder: NewFolder, now: string): Promise<string> {
    const id = randomUUID();
    await this.db.kysely
      .insertInto("folders")
      .values({
        id,
        library_id: folder.libraryId,
        parent_id: folder.parentId,
        name: folder.name,
        sort: folder.sort,
        created_by: folder.createdBy,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return id;
  }

  async update(id: string, changes: { name: string; parentId: string | null; sort: number }, now: string) {
    await this.db.kysely
      .updateTable("folders")
      .set({ name: changes.name, parent_id: changes.parentId, sort: changes.sort, updated_at: now })
      .where("id", "=", id)
      .execute();
  }

  async hasChildren(id: string): Promise<boolean> {
    return (
      (await this.db.kysely.selectFrom("folders").select("id").where("parent_id", "=", id).executeTakeFirst()) !==
      undefined
    );
  }

  async delete(id: string): Promise<void> {
    await this.db.kysely.deleteFrom("folders").where("id", "=", id).execute();
  }
}
