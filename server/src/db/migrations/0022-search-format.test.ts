import { randomUUID } from "node:crypto";
import { Migrator } from "kysely";
import { expect, it } from "vitest";
import { buildSearch } from "../../modules/search/search.compose.js";
import { SEARCH_FORMAT, storedFormat } from "../../modules/search/search-format.js";
import { StoriesRepository } from "../../modules/stories/stories.repository.js";
import { describeEachDialect, useTestDb } from "../../test/dialects.js";
import { storyRow } from "../../test/stories-app.js";
import { DamsMigrationProvider } from "./index.js";

describeEachDialect("migration 0022-search-format", (dialect) => {
  const db = useTestDb(dialect);

  it("starts an empty index at the current format, marks one with entries as format 1 for dams serve to rewrite", async () => {
    const { kysely, adapter } = db();
    expect(await storedFormat(kysely)).toBe(SEARCH_FORMAT);
    const search = buildSearch(db());
    const id = randomUUID();
    await new StoriesRepository(kysely, adapter, search.index).insertStory(storyRow({ id, title: "5G手机 zqxformat" }));
    const provider = new DamsMigrationProvider(adapter);
    const names = Object.keys(await provider.getMigrations());
    const before = names[names.indexOf("0022-search-format") - 1]!;
    const migrator = new Migrator({ db: kysely, provider });
    // Down to the migration before this one (and every later one), then up again.
    expect((await migrator.migrateTo(before)).error).toBeUndefined();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await storedFormat(kysely)).toBe(1);
    expect(await search.service.refreshIfStale()).toBe(1);
    expect(await storedFormat(kysely)).toBe(SEARCH_FORMAT);
    const found = await search.service.search(
      { libraryIds: ["product"], viewerId: randomUUID(), fulltext: "手机" },
      { page: 0, size: 10 },
      false,
    );
    expect(found.rows.map((row) => row.id)).toEqual([id]);
  });
});
