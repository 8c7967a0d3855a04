import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

const SHARE_COLUMNS = ["drop_library_id", "drop_folder_id", "drop_max_files", "drop_max_bytes", "drop_files"];

/**
 * The upload drop of share links (issue 16, docs/sharing.md "Upload drop"):
 * visitors may upload files into a folder the owner picked, each becoming a
 * draft in the owner's name with the visitor as its author. `shares` gets the
 * folder (`drop_library_id`, `drop_folder_id`; both null: no drop), the
 * optional limits (files, bytes per file) and the count of files dropped;
 * the visitor log gets the name the visitor gave. Plain added columns, no
 * new checks: SQLite needs no rebuild of `shares` (which would cascade to
 * `share_items` and `share_visits`).
 */
export function shareUploads(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema.alterTable("shares").addColumn("drop_library_id", "text").execute();
      await db.schema.alterTable("shares").addColumn("drop_folder_id", types.uuid).execute();
      await db.schema.alterTable("shares").addColumn("drop_max_files", "integer").execute();
      await db.schema.alterTable("shares").addColumn("drop_max_bytes", "bigint").execute();
      await db.schema
        .alterTable("shares")
        .addColumn("drop_files", "integer", (column) => column.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable("share_visits").addColumn("visitor_name", "text").execute();
    },
    async down(db: AnyKysely): Promise<void> {
      await db.schema.alterTable("share_visits").dropColumn("visitor_name").execute();
      for (const column of SHARE_COLUMNS.reverse()) {
        await db.schema.alterTable("shares").dropColumn(column).execute();
      }
    },
  };
}
