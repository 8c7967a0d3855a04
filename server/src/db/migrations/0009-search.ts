import { sql } from "kysely";
import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/**
 * The search index (see docs/search.md). Both dialects index the same
 * normalised text: words and single CJK characters separated by spaces.
 * - SQLite: an FTS5 table (unicode61) whose rowid is kept in
 *   `story_search_keys` (a story id has no integer key of its own).
 * - PostgreSQL: `story_search` with a `simple` tsvector and a GIN index.
 * `story_terms` holds authors, tags, keywords and the source one per row, for
 * exact filters and facets without scanning JSON columns. Indexes on stories
 * let date-sorted pages of a library stop after one page.
 */
export function search(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  return {
    async up(db: AnyKysely): Promise<void> {
      if (adapter.name === "sqlite") {
        await db.schema
          .createTable("story_search_keys")
          .addColumn("rowid", "integer", (column) => column.primaryKey())
          .addColumn("story_id", "text", (column) => column.notNull().unique())
          .execute();
        await sql`create virtual table story_search using fts5(body, tokenize = 'unicode61 remove_diacritics 2')`.execute(
          db,
        );
      } else {
        await db.schema
          .createTable("story_search")
          .addColumn("story_id", types.uuid, (column) =>
            column.primaryKey().references("stories.id").onDelete("cascade"),
          )
          .addColumn("body", "text", (column) => column.notNull())
          .addColumn("tsv", sql`tsvector`, (column) => column.notNull())
          .execute();
        await sql`create index story_search_tsv_idx on story_search using gin (tsv)`.execute(db);
      }
      await db.schema
        .createTable("story_terms")
        .addColumn("story_id", types.uuid, (column) => column.notNull().references("stories.id").onDelete("cascade"))
        .addColumn("kind", "text", (column) =>
          column.notNull().check(sql`kind in ('author', 'tag', 'keyword', 'source')`),
        )
        .addColumn("value", "text", (column) => column.notNull())
        .addPrimaryKeyConstraint("story_terms_pk", ["story_id", "kind", "value"])
        .execute();
      await db.schema
        .createIndex("story_terms_value_idx")
        .on("story_terms")
        .columns(["kind", "value", "story_id"])
        .execute();
      await db.schema
        .createIndex("stories_library_created_idx")
        .on("stories")
        .columns(["library_id", "created_at"])
        .execute();
      await db.schema
        .createIndex("stories_library_updated_idx")
        .on("stories")
        .columns(["library_id", "updated_at"])
        .execute();
      await db.schema
        .createIndex("stories_library_captured_idx")
        .on("stories")
        .columns(["library_id", "captured_at"])
        .execute();
    },
    async down(db: AnyKysely): Promise<void> {
      for (const index of [
        "stories_library_created_idx",
        "stories_library_updated_idx",
        "stories_library_captured_idx",
      ]) {
        await db.schema.dropIndex(index).execute();
      }
      await db.schema.dropTable("story_terms").execute();
      await db.schema.dropTable("story_search").execute();
      if (adapter.name === "sqlite") await db.schema.dropTable("story_search_keys").execute();
    },
  };
}
