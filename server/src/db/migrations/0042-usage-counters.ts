import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/**
 * Usage counters (issue 18, docs/monitors.md): story views per UTC day, story
 * and user, and searches that found nothing per UTC day and query. Counts,
 * not events: the monitor module's `UsageCounter` adds up a few seconds of
 * requests in memory and writes one upsert per row, so a busy viewer or
 * search box costs no write per request, and a row per (day, story, user)
 * bounds the tables. Rows older than the usage statistics' longest period are
 * deleted by the maintenance job.
 */
export function usageCounters(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema
        .createTable("story_views")
        // YYYY-MM-DD (UTC).
        .addColumn("day", "text", (column) => column.notNull())
        // No foreign keys: the counts outlive a deleted story or user.
        .addColumn("story_id", types.uuid, (column) => column.notNull())
        .addColumn("user_id", types.uuid, (column) => column.notNull())
        .addColumn("library_id", "text", (column) => column.notNull())
        .addColumn("views", "integer", (column) => column.notNull())
        .addPrimaryKeyConstraint("story_views_pk", ["day", "story_id", "user_id"])
        .execute();
      await db.schema
        .createTable("search_misses")
        .addColumn("day", "text", (column) => column.notNull())
        // Trimmed, lower case, spaces collapsed, at most 200 characters.
        .addColumn("query", "text", (column) => column.notNull())
        .addColumn("searches", "integer", (column) => column.notNull())
        .addColumn("last_at", types.timestamp, (column) => column.notNull())
        .addPrimaryKeyConstraint("search_misses_pk", ["day", "query"])
        .execute();
    },
    async down(db: AnyKysely): Promise<void> {
      await db.schema.dropTable("search_misses").execute();
      await db.schema.dropTable("story_views").execute();
    },
  };
}
