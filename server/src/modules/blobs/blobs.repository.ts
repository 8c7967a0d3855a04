import type { Kysely, Selectable } from "kysely";
import type { Db } from "../../db/database.js";
import type { BlobsTable, Database } from "../../db/schema.js";

export type BlobRow = Selectable<BlobsTable>;

/** SQL of the blob registry. */
export class BlobsRepository {
  constructor(private readonly db: Db) {}

  async insert(row: BlobRow, transaction?: Kysely<Database>): Promise<void> {
    await (transaction ?? this.db.kysely).insertInto("blobs").values(row).execute();
  }

  async find(key: string): Promise<BlobRow | undefined> {
    return this.db.kysely.selectFrom("blobs").selectAll().where("key", "=", key).executeTakeFirst();
  }

  async findBySha256(sha256: string): Promise<BlobRow[]> {
    return this.db.kysely.selectFrom("blobs").selectAll().where("sha256", "=", sha256).orderBy("created_at").execute();
  }

  async delete(key: string, transaction?: Kysely<Database>): Promise<void> {
    await (transaction ?? this.db.kysely).deleteFrom("blobs").where("key", "=", key).execute();
  }

  async deleteMany(keys: string[], transaction?: Kysely<Database>): Promise<void> {
    if (keys.length === 0) return;
    await (transaction ?? this.db.kysely).deleteFrom("blobs").where("key", "in", keys).execute();
  }

  /** Which of `keys` have a row. */
  async existingKeys(keys: string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await this.db.kysely.selectFrom("blobs").select("key").where("key", "in", keys).execute();
    return new Set(rows.map((row) => row.key));
  }

  /** Keys in key order after `after`, a page at a time (keyset paging). */
  async keysAfter(after: string, limit: number): Promise<string[]> {
    const rows = await this.db.kysely
      .selectFrom("blobs")
      .select("key")
      .where("key", ">", after)
      .orderBy("key")
      .limit(limit)
      .execute();
    return rows.map((row) => row.key);
  }

  /** Rows in key order after `after` (null: from the start), a page at a time (keyset paging). */
  async rowsAfter(after: string | null, limit: number): Promise<Pick<BlobRow, "key" | "sha256" | "size">[]> {
    let query = this.db.kysely.selectFrom("blobs").select(["key", "sha256", "size"]).orderBy("key").limit(limit);
    if (after !== null) query = query.where("key", ">", after);
    const rows = await query.execute();
    return rows.map((row) => ({ key: row.key, sha256: row.sha256, size: Number(row.size) }));
  }

  async count(): Promise<number> {
    const row = await this.db.kysely
      .selectFrom("blobs")
      .select((eb) => eb.fn.countAll<number>().as("blobs"))
      .executeTakeFirstOrThrow();
    return Number(row.blobs);
  }
}
