import { sql } from "kysely";
import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/**
 * Every list without a full-text query counts the stories of the readable
 * libraries that the caller may see (not a draft, or the caller's own). With
 * no other filter no index held both `status` and `created_by`, so the count
 * read each story row: about 210 ms for a library of 700 000 stories on
 * SQLite. This index answers it alone (about 45 ms there); docs/search.md
 * "Query plans".
 */
export function storiesVisibleCount(_adapter: DialectAdapter) {
  return {
    async up(db: AnyKysely): Promise<void> {
      await sql`create index stories_library_visible_idx on stories (library_id, status, created_by)`.execute(db);
    },
    async down(db: AnyKysely): Promise<void> {
      await sql`drop index stories_library_visible_idx`.execute(db);
    },
  };
}
