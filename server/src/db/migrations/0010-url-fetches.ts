import { sql } from "kysely";
import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/**
 * The download centre (docs/url-ingest.md): one row per URL a user asked the
 * server to fetch, with its progress, its outcome (the draft story made of
 * it) or the reason it was refused.
 */
export function urlFetches(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema
        .createTable("url_fetches")
        .addColumn("id", types.uuid, (column) => column.primaryKey())
        .addColumn("user_id", types.uuid, (column) => column.notNull().references("users.id").onDelete("cascade"))
        .addColumn("url", "text", (column) => column.notNull())
        .addColumn("library_id", "text", (column) => column.notNull())
        .addColumn("folder_id", types.uuid)
        .addColumn("type", "text")
        .addColumn("suffix", "text")
        .addColumn("state", "text", (column) =>
          column.notNull().check(sql`state in ('queued', 'running', 'done', 'failed')`),
        )
        .addColumn("bytes_received", "bigint", (column) => column.notNull().defaultTo(0))
        .addColumn("total_bytes", "bigint")
        .addColumn("speed", "bigint", (column) => column.notNull().defaultTo(0))
        .addColumn("error", "text")
        .addColumn("story_id", types.uuid)
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .execute();
      // The rate call finds the user's latest fetch of a URL; the list pages a user's fetches by date.
      await db.schema
        .createIndex("url_fetches_user_url_idx")
        .on("url_fetches")
        .columns(["user_id", "url", "created_at"])
        .execute();
      await db.schema
        .createIndex("url_fetches_user_created_idx")
        .on("url_fetches")
        .columns(["user_id", "created_at"])
        .execute();
    },
    async down(db: AnyKysely): Promise<void> {
      await db.schema.dropTable("url_fetches").execute();
    },
  };
}
