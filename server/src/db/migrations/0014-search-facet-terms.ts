import { sql } from "kysely";
import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/**
 * The authors, sources and tags of a story beside its full-text entry, as a
 * JSON array of `[kind, value]` pairs (the facet kinds of `story_terms`), so
 * that a full-text search counts its window's facets from the window's own
 * rows instead of looking each story up in `story_terms` (docs/search.md,
 * "The window"). SQLite: in `story_search_keys`; PostgreSQL: in
 * `story_search`. Backfilled from `story_terms`.
 */
export function searchFacetTerms(adapter: DialectAdapter) {
  const table = adapter.name === "sqlite" ? "story_search_keys" : "story_search";
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema.alterTable(table).addColumn("facet_terms", "text").execute();
      const terms =
        adapter.name === "sqlite"
          ? sql`(select json_group_array(json_array(t.kind, t.value)) from story_terms t
              where t.story_id = ${sql.ref(`${table}.story_id`)} and t.kind in ('author', 'source', 'tag'))`
          : sql`(select coalesce(json_agg(json_build_array(t.kind, t.value)), '[]'::json)::text from story_terms t
              where t.story_id = ${sql.ref(`${table}.story_id`)} and t.kind in ('author', 'source', 'tag'))`;
      await sql`update ${sql.table(table)} set facet_terms = ${terms}`.execute(db);
    },
    async down(db: AnyKysely): Promise<void> {
      await db.schema.alterTable(table).dropColumn("facet_terms").execute();
    },
  };
}
