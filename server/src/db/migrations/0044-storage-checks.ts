import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/**
 * Integrity checks of the stored originals (issue 18; the storage monitor,
 * docs/storage.md "Integrity check"): every registered blob read back from
 * the target it lives in and its SHA-256 and size compared with its
 * registry row. `storage_checks` holds each check's progress and counts,
 * with the last key checked (`cursor`) so a check resumes where it stopped
 * after a restart; `storage_check_problems` the blobs found missing,
 * changed or unreadable (the first 10 000 of each check).
 */
export function storageChecks(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema
        .createTable("storage_checks")
        .addColumn("id", types.uuid, (column) => column.primaryKey())
        .addColumn("state", "text", (column) => column.notNull())
        .addColumn("total_files", "bigint", (column) => column.notNull())
        .addColumn("checked_files", "bigint", (column) => column.notNull())
        .addColumn("checked_bytes", "bigint", (column) => column.notNull())
        .addColumn("missing", "integer", (column) => column.notNull())
        .addColumn("mismatched", "integer", (column) => column.notNull())
        .addColumn("unreadable", "integer", (column) => column.notNull())
        .addColumn("cursor", "text")
        .addColumn("error", "text")
        .addColumn("job_id", "text")
        .addColumn("created_by", "text")
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .addColumn("finished_at", types.timestamp)
        .execute();
      await db.schema.createIndex("storage_checks_created_idx").on("storage_checks").column("created_at").execute();
      await db.schema
        .createTable("storage_check_problems")
        .addColumn("check_id", types.uuid, (column) =>
          column.notNull().references("storage_checks.id").onDelete("cascade"),
        )
        .addColumn("key", "text", (column) => column.notNull())
        .addColumn("kind", "text", (column) => column.notNull())
        .addColumn("expected_sha256", "text", (column) => column.notNull())
        .addColumn("expected_size", "bigint", (column) => column.notNull())
        .addColumn("actual_sha256", "text")
        .addColumn("actual_size", "bigint")
        .addColumn("detail", "text")
        .addColumn("found_at", types.timestamp, (column) => column.notNull())
        .addPrimaryKeyConstraint("storage_check_problems_pk", ["check_id", "key"])
        .execute();
    },
    async down(db: AnyKysely): Promise<void> {
      await db.schema.dropTable("storage_check_problems").execute();
      await db.schema.dropTable("storage_checks").execute();
    },
  };
}
