import { sql } from "kysely";
import { expect, it } from "vitest";
import { describeEachDialect, useTestDb } from "../../test/dialects.js";
import { storiesHashIndex } from "./0020-stories-hash-index.js";

describeEachDialect("migration 0020-stories-hash-index", (dialect) => {
  const db = useTestDb(dialect);

  /** The stories table's indexes on the content hash: name → definition. */
  async function hashIndexes(): Promise<Record<string, string>> {
    const { kysely } = db();
    const { rows } =
      dialect === "sqlite"
        ? await sql<{ name: string; definition: string }>`select name, sql as definition from sqlite_master
            where type = 'index' and tbl_name = 'stories' and sql like '%content_sha256%'`.execute(kysely)
        : await sql<{ name: string; definition: string }>`select indexname as name, indexdef as definition
            from pg_indexes where schemaname = current_schema() and tablename = 'stories'
            and indexdef like '%content_sha256%'`.execute(kysely);
    return Object.fromEntries(rows.map((row) => [row.name, row.definition.replace(/\s+/g, " ")]));
  }

  it("replaces the index of every story's (library, hash) by one of the stories that have a hash, and back", async () => {
    const partial = /\(library_id, content_sha256\).* where \(?content_sha256 is not null\)?/i;
    const migrated = await hashIndexes();
    expect(Object.keys(migrated)).toEqual(["stories_library_hash_idx"]);
    expect(migrated.stories_library_hash_idx).toMatch(partial);

    await storiesHashIndex().down(db().kysely);
    const before = await hashIndexes();
    expect(Object.keys(before)).toEqual(["stories_library_sha256_idx"]);
    expect(before.stories_library_sha256_idx).toMatch(/\(library_id, content_sha256\)$/i);

    await storiesHashIndex().up(db().kysely);
    expect(await hashIndexes()).toEqual(migrated);
  });
});
