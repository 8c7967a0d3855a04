import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/**
 * The locks of tus uploads, which a single process used to keep in memory:
 * rows, so every API node sees them, held with a lease, so a killed node's
 * lock runs out.
 */
export function uploadLocks(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema
        .createTable("upload_locks")
        .addColumn("upload_id", "text", (column) => column.primaryKey())
        .addColumn("holder", "text", (column) => column.notNull())
        .addColumn("expires_at", types.timestamp, (column) => column.notNull())
        .execute();
    },
    async down(db: AnyKysely): Promise<void> {
      await db.schema.dropTable("upload_locks").execute();
    },
  };
}
