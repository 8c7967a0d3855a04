import { sql } from "kysely";
import type { AnyKysely } from "./index.js";

/**
 * An upload's exact-duplicate check asks for the stories of a library with
 * the same content hash. The index of (library_id, content_sha256) answered
 * it only while the planner believed the hash column selective: statistics
 * taken while most stories had no hash (a library of composites, generated
 * data) made SQLite walk the library by date instead, 68.5 ms per upload at
 * 100 000 stories. This index holds only stories that have a hash, so its
 * statistics describe hashes alone, and an empty one is the cheapest plan of
 * all; it also serves the duplicates page's "hashes held more than once".
 */
export function storiesHashIndex() {
  return {
    async up(db: AnyKysely): Promise<void> {
      await sql`create index stories_library_hash_idx on stories (library_id, content_sha256)
        where content_sha256 is not null`.execute(db);
      await sql`drop index stories_library_sha256_idx`.execute(db);
    },
    async down(db: AnyKysely): Promise<void> {
      await sql`create index stories_library_sha256_idx on stories (library_id, content_sha256)`.execute(db);
      await sql`drop index stories_library_hash_idx`.execute(db);
    },
  };
}
