import { sql } from "kysely";
import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/** Copied from `stories` into the index: what the window of a full-text search filters and orders by. */
const COLUMNS = ["library_id", "folder_id", "type", "status", "created_by", "created_at", "captured_at"] as const;

/**
 * The filter and sort columns of a story beside its full-text entry
 * (docs/search.md, "The window"), so that a full-text search finds its window
 * from the index alone and reads `stories` only for the page it shows.
 * SQLite: in `story_search_keys` (the FTS rowid's table); PostgreSQL: in
 * `story_search`, with a btree on the upload date so that a common term can be
 * read newest first and stop at the window. Folder and creator follow their
 * rows' deletion as `stories` does (set null). Backfilled from `stories`.
 */
export function searchColumns(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  const table = adapter.name === "sqlite" ? "story_search_keys" : "story_search";
  return {
    async up(db: AnyKysely): Promise<void> {
      const alter = () => db.schema.alterTable(table);
      await alter().addColumn("library_id", "text").execute();
      await alter()
        .addColumn("folder_id", types.uuid, (column) => column.references("folders.id").onDelete("set null"))
        .execute();
      await alter().addColumn("type", "text").execute();
      await alter().addColumn("status", "text").execute();
      await alter()
        .addColumn("created_by", types.uuid, (column) => column.references("users.id").onDelete("set null"))
        .execute();
      await alter().addColumn("created_at", types.timestamp).execute();
      await alter().addColumn("captured_at", types.timestamp).execute();
      const assignments = sql.join(COLUMNS.map((column) => sql`${sql.ref(column)} = ${sql.ref(`stories.${column}`)}`));
      await sql`update ${sql.table(table)} set ${assignments} from stories
        where stories.id = ${sql.ref(`${table}.story_id`)}`.execute(db);
      if (adapter.name === "postgres")
        await sql`create index story_search_created_idx on story_search (created_at desc)`.execute(db);
    },
    async down(db: AnyKysely): Promise<void> {
      if (adapter.name === "postgres") {
        await db.schema.dropIndex("story_search_created_idx").execute();
        for (const column of COLUMNS) await db.schema.alterTable(table).dropColumn(column).execute();
        return;
      }
      // SQLite drops no column that holds a foreign key: the table of 0009 is built again, rowids kept.
      await db.schema
        .createTable("story_search_keys_prev")
        .addColumn("rowid", "integer", (column) => column.primaryKey())
        .addColumn("story_id", "text", (column) => column.notNull().unique())
        .execute();
      await sql`insert into story_search_keys_prev (rowid, story_id) select rowid, story_id from story_search_keys`.execute(
        db,
      );
      await db.schema.dropTable("story_search_keys").execute();
      await db.schema.alterTable("story_search_keys_prev").renameTo("story_search_keys").execute();
    },
  };
}
