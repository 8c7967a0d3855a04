import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/**
 * Quotas per library (issue 18, /manage/storage/setting): the most bytes a
 * library's stories may hold (originals, renditions and older versions, as
 * the storage monitor counts them). No row: no limit. Users' quotas are the
 * network disk's (`disk_quotas`, migration 0025).
 */
export function libraryQuotas(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema
        .createTable("library_quotas")
        .addColumn("library_id", "text", (column) => column.primaryKey().references("libraries.id").onDelete("cascade"))
        .addColumn("quota_bytes", "bigint", (column) => column.notNull())
        .addColumn("updated_by", "text")
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .execute();
    },
    async down(db: AnyKysely): Promise<void> {
      await db.schema.dropTable("library_quotas").execute();
    },
  };
}
