import type { Db } from "../../db/database.js";
import type { LibraryKind } from "../../db/schema.js";

export interface LibraryRecord {
  id: string;
  name: string;
  kind: LibraryKind;
  description: string | null;
  sort: number;
}

export class LibrariesRepository {
  constructor(private readonly db: Db) {}

  async all(): Promise<LibraryRecord[]> {
    return this.db.kysely
      .selectFrom("libraries")
      .select(["id", "name", "kind", "description", "sort"])
      .orderBy("sort")
      .orderBy("id")
      .execute();
  }

  async findById(id: string): Promise<LibraryRecord | undefined> {
    return this.db.kysely
      .selectFrom("libraries")
      .select(["id", "name", "kind", "description", "sort"])
      .where("id", "=", id)
      .executeTakeFirst();
  }
}
