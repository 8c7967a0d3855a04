import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/**
 * The ingest command's idempotency keys (modules/ingest): a caller that may
 * run twice for the same file (a retried upload completion, a job run again)
 * names it with a key, and the second call gets the story the first one made.
 * The key goes with its story.
 */
export function ingestKeys(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema
        .createTable("ingest_keys")
        .addColumn("key", "text", (column) => column.primaryKey())
        .addColumn("library_id", "text", (column) => column.notNull())
        .addColumn("story_id", types.uuid, (column) => column.notNull().references("stories.id").onDelete("cascade"))
        .addColumn("version_no", "integer", (column) => column.notNull())
        .addColumn("blob_key", "text", (column) => column.notNull())
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .execute();
      await db.schema.createIndex("ingest_keys_story_idx").on("ingest_keys").column("story_id").execute();
    },
    async down(db: AnyKysely): Promise<void> {
      await db.schema.dropTable("ingest_keys").execute();
    },
  };
}
