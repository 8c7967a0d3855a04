import { sql } from "kysely";
import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/** The story types of 0007 (frozen here: a migration does not follow later code). */
const TYPES = ["photo", "video", "audio", "composite"] as const;

/**
 * PostgreSQL walks a common term's newest entries in upload order
 * (SearchIndex.walkEnd, docs/search.md "The window"), ordered by
 * `(created_at, story_id)` so that a walk has an exact end: the upload-date
 * index becomes that pair, and each type gets its own partial index of it for
 * searches of one type (a partial index keeps the upload order's correlation
 * with the table, which a leading type column would hide from the planner).
 * SQLite walks FTS5's rowids and needs none of them.
 */
export function searchSlices(adapter: DialectAdapter) {
  return {
    async up(db: AnyKysely): Promise<void> {
      if (adapter.name !== "postgres") return;
      await sql`create index story_search_created_id_idx on story_search (created_at desc, story_id desc)`.execute(db);
      for (const type of TYPES)
        await sql`create index ${sql.id(`story_search_${type}_created_idx`)} on story_search
          (created_at desc, story_id desc) where type = ${sql.lit(type)}`.execute(db);
      await sql`drop index story_search_created_idx`.execute(db);
    },
    async down(db: AnyKysely): Promise<void> {
      if (adapter.name !== "postgres") return;
      await sql`create index story_search_created_idx on story_search (created_at desc)`.execute(db);
      for (const type of TYPES) await sql`drop index ${sql.id(`story_search_${type}_created_idx`)}`.execute(db);
      await sql`drop index story_search_created_id_idx`.execute(db);
    },
  };
}
