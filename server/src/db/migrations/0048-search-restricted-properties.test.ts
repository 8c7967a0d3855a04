import { randomUUID } from "node:crypto";
import { Migrator } from "kysely";
import { expect, it } from "vitest";
import { buildSearch } from "../../modules/search/search.compose.js";
import { SEARCH_FORMAT, storedFormat } from "../../modules/search/search-format.js";
import { StoriesRepository } from "../../modules/stories/stories.repository.js";
import { describeEachDialect, useTestDb } from "../../test/dialects.js";
import { storyRow } from "../../test/stories-app.js";
import { DamsMigrationProvider } from "./index.js";

describeEachDialect("migration 0048-search-restricted-properties", (dialect) => {
  const db = useTestDb(dialect);

  it("takes the hidden properties of the existing rules and has dams serve rewrite the entries", async () => {
    const { kysely, adapter } = db();
    const search = buildSearch(db());
    const id = randomUUID();
    await new StoriesRepository(kysely, adapter, search.index).insertStory(
      storyRow({ id, title: "migrated", properties: adapter.writeJson({ sourceFee: "zebrafee" }) }),
    );
    const provider = new DamsMigrationProvider(adapter);
    const names = Object.keys(await provider.getMigrations());
    const before = names[names.indexOf("0048-search-restricted-properties") - 1]!;
    const migrator = new Migrator({ db: kysely, provider });
    expect((await migrator.migrateTo(before)).error).toBeUndefined();
    // A rule written before this migration: the entry holds the value untagged.
    await kysely
      .insertInto("property_access")
      .values({
        role_id: "contributor",
        property: "sourceFee",
        visible: false,
        editable: false,
        updated_at: new Date().toISOString(),
      })
      .execute();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await search.index.restrictedProperties()).toEqual(["sourceFee"]);
    expect(await storedFormat(kysely)).toBe(2);
    expect(await search.service.refreshIfStale()).toBe(1);
    expect(await storedFormat(kysely)).toBe(SEARCH_FORMAT);
    const find = async (hiddenProperties: string[]) =>
      (
        await search.service.search(
          { libraryIds: ["product"], viewerId: randomUUID(), fulltext: "zebrafee", hiddenProperties },
          { page: 0, size: 10 },
          false,
        )
      ).rows.map((row) => row.id);
    expect(await find(["sourceFee"])).toEqual([]);
    expect(await find([])).toEqual([id]);
  });
});
