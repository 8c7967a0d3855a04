import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/**
 * Publishing channels (the spec's "tunnels", modules/channels) and their
 * deliveries (modules/publishing): one row per (story, channel) sent or
 * withdrawn, the durable job that does it, and a story's embargo.
 */
export function channels(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema
        .createTable("channels")
        .addColumn("id", types.uuid, (column) => column.primaryKey())
        .addColumn("name", "text", (column) => column.notNull().unique())
        .addColumn("kind", "text", (column) => column.notNull())
        .addColumn("format", "text", (column) => column.notNull())
        .addColumn("enabled", types.boolean, (column) => column.notNull())
        .addColumn("settings", types.json, (column) => column.notNull())
        .addColumn("field_mapping", types.json, (column) => column.notNull())
        .addColumn("preset_id", "text")
        /** AES-256-GCM of the credentials' JSON (v1:<base64 iv|tag|ciphertext>); never returned by the API. */
        .addColumn("credentials", "text")
        .addColumn("created_by", "text")
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .execute();
      await db.schema
        .createTable("deliveries")
        .addColumn("id", types.uuid, (column) => column.primaryKey())
        .addColumn("channel_id", types.uuid, (column) => column.notNull())
        .addColumn("library_id", "text", (column) => column.notNull())
        .addColumn("story_id", types.uuid, (column) => column.notNull())
        .addColumn("story_title", "text", (column) => column.notNull())
        .addColumn("version_no", "integer", (column) => column.notNull())
        .addColumn("action", "text", (column) => column.notNull())
        .addColumn("state", "text", (column) => column.notNull())
        .addColumn("attempts", "integer", (column) => column.notNull())
        .addColumn("last_error", "text")
        .addColumn("job_id", "text")
        .addColumn("not_before", types.timestamp)
        .addColumn("started_at", types.timestamp)
        .addColumn("finished_at", types.timestamp)
        .addColumn("duration_ms", "integer")
        .addColumn("created_by", "text")
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .execute();
      await db.schema
        .createIndex("deliveries_story_idx")
        .on("deliveries")
        .columns(["story_id", "channel_id"])
        .execute();
      await db.schema
        .createIndex("deliveries_channel_idx")
        .on("deliveries")
        .columns(["channel_id", "created_at"])
        .execute();
      await db.schema.createIndex("deliveries_created_idx").on("deliveries").column("created_at").execute();
      await db.schema
        .createTable("story_embargoes")
        .addColumn("story_id", types.uuid, (column) => column.primaryKey())
        .addColumn("library_id", "text", (column) => column.notNull())
        .addColumn("until", types.timestamp, (column) => column.notNull())
        .addColumn("set_by", "text")
        .addColumn("set_at", types.timestamp, (column) => column.notNull())
        .execute();
    },
    async down(db: AnyKysely): Promise<void> {
      await db.schema.dropTable("story_embargoes").execute();
      await db.schema.dropTable("deliveries").execute();
      await db.schema.dropTable("channels").execute();
    },
  };
}
