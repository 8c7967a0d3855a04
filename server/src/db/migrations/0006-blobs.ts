import { sql } from "kysely";
import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/**
 * The registry of stored originals: one row per blob under `originals/`.
 * A blob without a row is an orphan (the sweeper deletes it after a grace
 * period); stories reference `blobs.key`.
 */
export function blobs(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema
        .createTable("blobs")
        .addColumn("key", "text", (column) => column.primaryKey())
        .addColumn("sha256", "text", (column) => column.notNull())
        .addColumn("size", "bigint", (column) => column.notNull())
        .addColumn("mime", "text", (column) => column.notNull())
        .addColumn("kind", "text", (column) => column.notNull().check(sql`kind in ('photo', 'video', 'audio')`))
        .addColumn("original_name", "text")
        .addColumn("created_by", types.uuid, (column) => column.references("users.id").onDelete("set null"))
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .execute();
      // Exact duplicates are found by content hash.
      await db.schema.createIndex("blobs_sha256_idx").on("blobs").column("sha256").execute();
      await db.schema.createIndex("blobs_created_by_idx").on("blobs").column("created_by").execute();
    },
    async down(db: AnyKysely): Promise<void> {
      await db.schema.dropTable("blobs").execute();
    },
  };
}
