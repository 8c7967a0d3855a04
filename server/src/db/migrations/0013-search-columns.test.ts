import { randomUUID } from "node:crypto";
import { Migrator, sql } from "kysely";
import { expect, it } from "vitest";
import { createSearchIndex } from "../../modules/search/search.compose.js";
import { SearchRepository } from "../../modules/search/search.repository.js";
import { StoriesRepository } from "../../modules/stories/stories.repository.js";
import { describeEachDialect, useTestDb } from "../../test/dialects.js";
import { storyRow } from "../../test/stories-app.js";
import { DamsMigrationProvider } from "./index.js";

describeEachDialect("migration 0013-search-columns", (dialect) => {
  const db = useTestDb(dialect);
  const table = dialect === "sqlite" ? "story_search_keys" : "story_search";

  it("goes down to 0012 keeping the index, and up again filling the copied columns from stories", async () => {
    const { kysely, adapter } = db();
    const id = randomUUID();
    const created = "2022-03-04T05:06:07.000Z";
    const captured = "2021-12-25T00:00:00.000Z";
    await new StoriesRepository(kysely, adapter, createSearchIndex(kysely, adapter)).insertStory(
      storyRow({
        id,
        library_id: "material",
        type: "video",
        title: "Migrated zqxmigrate",
        captured_at: captured,
        created_at: created,
        updated_at: created,
      }),
    );
    const migrator = new Migrator({ db: kysely, provider: new DamsMigrationProvider(adapter) });
    const columns = async () =>
      (await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(kysely)).rows.map((row) =>
        Object.keys(row).sort(),
      );

    const down = await migrator.migrateTo("0012-url-fetch-cancel");
    expect(down.error).toBeUndefined();
    expect((await columns())[0]).not.toContain("library_id");

    const up = await migrator.migrateToLatest();
    expect(up.error).toBeUndefined();
    // The later migrations apply too; these are the ones this test is about.
    expect(up.results?.map((result) => result.migrationName).slice(0, 4)).toEqual([
      "0013-search-columns",
      "0014-search-facet-terms",
      "0015-search-slices",
      "0016-stories-visible-count",
    ]);
    const { rows } = await sql<{
      library_id: string;
      type: string;
      status: string;
      created_at: unknown;
      captured_at: unknown;
    }>`select library_id, type, status, created_at, captured_at from ${sql.table(table)} where story_id = ${id}`.execute(
      kysely,
    );
    const iso = (value: unknown) => new Date(value as string).toISOString();
    expect(rows.map((row) => ({ ...row, created_at: iso(row.created_at), captured_at: iso(row.captured_at) }))).toEqual(
      [{ library_id: "material", type: "video", status: "committed", created_at: created, captured_at: captured }],
    );

    // A full-text search filtered by the copied columns finds the story from the backfill alone.
    const search = new SearchRepository(kysely, adapter, createSearchIndex(kysely, adapter));
    const filter = { libraryIds: ["material"], viewerId: randomUUID(), fulltext: "zqxmigrate" };
    const found = async (extra: object) =>
      (await search.list({ ...filter, ...extra }, { page: 0, size: 10 })).rows.map((row) => row.id);
    expect(await found({ types: ["video"], capturedFrom: "2021-12-01", uploadedTo: "2022-04-01" })).toEqual([id]);
    expect(await found({ types: ["photo"] })).toEqual([]);
    expect(await found({ uploadedFrom: "2022-04-01" })).toEqual([]);
  });
});
