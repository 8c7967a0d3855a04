import { randomUUID } from "node:crypto";
import { Migrator, sql } from "kysely";
import { expect, it } from "vitest";
import { createSearchIndex } from "../../modules/search/search.compose.js";
import { SearchRepository } from "../../modules/search/search.repository.js";
import { StoriesRepository } from "../../modules/stories/stories.repository.js";
import { describeEachDialect, useTestDb } from "../../test/dialects.js";
import { storyRow } from "../../test/stories-app.js";
import { DamsMigrationProvider } from "./index.js";

describeEachDialect("migration 0014-search-facet-terms", (dialect) => {
  const db = useTestDb(dialect);
  const table = dialect === "sqlite" ? "story_search_keys" : "story_search";

  it("goes down to 0013 and up again filling the facet terms from story_terms; facets come from them", async () => {
    const { kysely, adapter } = db();
    const stories = new StoriesRepository(kysely, adapter, createSearchIndex(kysely, adapter));
    const id = randomUUID();
    await stories.insertStory(
      storyRow({
        id,
        title: "Facet zqxfacet",
        authors: JSON.stringify(["张伟", "Mary Lee"]),
        source: "新华社",
        keywords: JSON.stringify(["不计入"]),
        tags: JSON.stringify(["要闻"]),
      }),
    );
    const terms = async () =>
      (
        await sql<{
          facet_terms: string | null;
        }>`select facet_terms from ${sql.table(table)} where story_id = ${id}`.execute(kysely)
      ).rows.map((row) => (row.facet_terms === null ? null : (JSON.parse(row.facet_terms) as string[][]).sort()));
    const want = [
      ["author", "Mary Lee"],
      ["author", "张伟"],
      ["source", "新华社"],
      ["tag", "要闻"],
    ];
    expect(await terms()).toEqual([want]);

    const migrator = new Migrator({ db: kysely, provider: new DamsMigrationProvider(adapter) });
    expect((await migrator.migrateTo("0013-search-columns")).error).toBeUndefined();
    const up = await migrator.migrateToLatest();
    expect(up.error).toBeUndefined();
    // The later migrations apply too; these are the ones this test is about.
    expect(up.results?.map((result) => result.migrationName).slice(0, 3)).toEqual([
      "0014-search-facet-terms",
      "0015-search-slices",
      "0016-stories-visible-count",
    ]);
    expect(await terms()).toEqual([want]);

    // The window's facets are counted from the backfilled column alone: story_terms emptied, still counted.
    await kysely.deleteFrom("story_terms").execute();
    const facets = await new SearchRepository(kysely, adapter, createSearchIndex(kysely, adapter)).facets({
      libraryIds: ["product"],
      viewerId: randomUUID(),
      fulltext: "zqxfacet",
    });
    expect(facets).toMatchObject({
      type: [{ value: "photo", count: 1 }],
      author: [
        { value: "Mary Lee", count: 1 },
        { value: "张伟", count: 1 },
      ],
      source: [{ value: "新华社", count: 1 }],
      tag: [{ value: "要闻", count: 1 }],
    });
  });
});
