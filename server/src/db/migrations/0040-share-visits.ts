import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/**
 * The visitor log of share links (issue 16, docs/sharing.md): one row per
 * visitor action — when, from which address, what they did (open, unlock,
 * a wrong password, view, download, zip), the story when there is one, and
 * a short user agent. A share keeps its newest rows only (ShareVisitLog
 * prunes as it writes); deleting a share deletes its rows. Read newest first
 * per share by (share_id, id), the order they were written. A later SQLite
 * rebuild of `shares` (as 0039 does) must carry these rows over: dropping
 * `shares` under them cascades.
 */
export function shareVisits(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema
        .createTable("share_visits")
        .addColumn("id", adapter.name === "postgres" ? "bigint" : "integer", (column) =>
          adapter.name === "postgres" ? column.primaryKey().generatedAlwaysAsIdentity() : column.primaryKey(),
        )
        .addColumn("share_id", types.uuid, (column) => column.notNull().references("shares.id").onDelete("cascade"))
        .addColumn("at", types.timestamp, (column) => column.notNull())
        .addColumn("address", "text")
        .addColumn("action", "text", (column) => column.notNull())
        // No foreign key: the log keeps what was downloaded after the story is gone.
        .addColumn("story_id", types.uuid)
        .addColumn("user_agent", "text")
        .execute();
      await db.schema.createIndex("share_visits_share_idx").on("share_visits").columns(["share_id", "id"]).execute();
    },
    async down(db: AnyKysely): Promise<void> {
      await db.schema.dropTable("share_visits").execute();
    },
  };
}
