import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/**
 * Storage targets (/manage/setting/bucket, modules/storage): S3-compatible
 * buckets and local directories besides the built-in storage, where each
 * blob lives when not in the built-in one (blob_locations), and the moves
 * of a library's files from one target to another (storage_moves).
 */
export function storageTargets(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema
        .createTable("storage_targets")
        .addColumn("id", types.uuid, (column) => column.primaryKey())
        .addColumn("name", "text", (column) => column.notNull().unique())
        .addColumn("kind", "text", (column) => column.notNull())
        /** local: the directory; s3: endpoint, region, bucket, prefix, path style, access key id. */
        .addColumn("settings", types.json, (column) => column.notNull())
        /** AES-256-GCM of the secret access key (v1:<base64 iv|tag|ciphertext>); never returned by the API. */
        .addColumn("secret", "text")
        .addColumn("is_default", types.boolean, (column) => column.notNull())
        .addColumn("created_by", "text")
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .execute();
      await db.schema
        .createTable("blob_locations")
        .addColumn("key", "text", (column) => column.primaryKey())
        .addColumn("target_id", "text", (column) => column.notNull())
        /** Set while a move has switched the blob but not yet deleted the old copy there. */
        .addColumn("previous_target_id", "text")
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .execute();
      await db.schema.createIndex("blob_locations_target_idx").on("blob_locations").column("target_id").execute();
      await db.schema
        .createTable("storage_moves")
        .addColumn("id", types.uuid, (column) => column.primaryKey())
        .addColumn("library_id", "text", (column) => column.notNull())
        .addColumn("target_id", "text", (column) => column.notNull())
        .addColumn("state", "text", (column) => column.notNull())
        .addColumn("total_files", "integer", (column) => column.notNull())
        .addColumn("moved_files", "integer", (column) => column.notNull())
        .addColumn("moved_bytes", "bigint", (column) => column.notNull())
        .addColumn("error", "text")
        .addColumn("job_id", "text")
        .addColumn("created_by", "text")
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .addColumn("finished_at", types.timestamp)
        .execute();
      await db.schema
        .createIndex("storage_moves_library_idx")
        .on("storage_moves")
        .columns(["library_id", "created_at"])
        .execute();
    },
    async down(db: AnyKysely): Promise<void> {
      await db.schema.dropTable("storage_moves").execute();
      await db.schema.dropTable("blob_locations").execute();
      await db.schema.dropTable("storage_targets").execute();
    },
  };
}
