import { randomUUID } from "node:crypto";
import { beforeAll, expect, it } from "vitest";
import { callApi } from "../../test/api-call.js";
import { describeEachDialect } from "../../test/dialects.js";
import type { TestPrincipal } from "../../test/principals.js";
import type { StoriesModule } from "../stories/stories.compose.js";
import { StoriesRepository, type StoryInsert } from "../stories/stories.repository.js";
import type { Actor } from "../stories/story-types.js";
import { buildSearch } from "./search.compose.js";
import { SearchRepository } from "./search.repository.js";
import type { SearchFilter } from "./search.schema.js";
import { COUNT, type Generated, LIBRARIES, QUERIES, useSearchData, word } from "./search.test-support.js";
import { SEARCH_FORMAT, storedFormat } from "./search-format.js";
import type { SearchIndex } from "./search-index.js";
import type { Facets } from "./search-window.js";

describeEachDialect("search", (dialect) => {
  const { ctx, data, findAll, expected, readable } = useSearchData(dialect);
  let module: StoriesModule;
  let index: SearchIndex;
  let admin: TestPrincipal;
  let contributor: TestPrincipal;
  let adminActor: Actor;
  let stories: Generated[];
  const counts: Record<string, number> = {};

  // After the fixture's own beforeAll (hooks run in the order they were registered).
  beforeAll(() => {
    ({ module, index, admin, contributor, adminActor, stories } = data);
  });

  it("finds exactly the expected stories for each query type", async () => {
    for (const { query, matches } of QUERIES) {
      const want = expected((story) => matches(story.text));
      const got = await findAll({ fulltext: query });
      counts[query] = got.length;
      expect(got.sort(), query).toEqual(want);
      expect(want.length, query).toBeGreaterThan(0);
    }
    // A two-character query does not match the characters apart (风 of 风景 is not 台风).
    expect(counts.台风).toBeLessThan(counts.台!);
    expect(counts['"press conference"']).toBeLessThan(counts["PRESS conf*"]!);
    expect(counts.press).toBeLessThan(counts["pres*"]!);
    console.log(`[${dialect}] ${COUNT} stories; matches per query:`, counts);
  });

  it("ranks by relevance, then by date", async () => {
    const { db } = ctx();
    const base = stories[1]!.row;
    const make = (title: string, caption: string, hour: number): StoryInsert => ({
      ...base,
      id: randomUUID(),
      oid: randomUUID(),
      status: "committed",
      title,
      caption,
      authors: "[]",
      keywords: "[]",
      tags: "[]",
      source: null,
      properties: "{}",
      original_name: null,
      created_at: new Date(Date.UTC(2025, 0, 1, hour)).toISOString(),
    });
    const older = make("walrus", "a walrus on the ice floe today", 1);
    const newer = make("walrus", "a walrus on the ice floe today", 2);
    const best = make("walrus walrus", "walrus walrus walrus", 0);
    const repository = new StoriesRepository(db.kysely, db.adapter, index);
    for (const row of [older, newer, best]) await repository.insertStory(row);
    expect(await findAll({ fulltext: "walrus" })).toEqual([best.id, newer.id, older.id]);
    expect(await findAll({ fulltext: "walrus", sort: "date" })).toEqual([newer.id, older.id, best.id]);
    expect(await findAll({ fulltext: "walrus", sort: "date", order: "asc" })).toEqual([best.id, older.id, newer.id]);
    for (const row of [older, newer, best]) await repository.delete(row.id);
    expect(await findAll({ fulltext: "walrus" })).toEqual([]);
  });

  it("combines full text with filters, and answers an unmatched or empty query", async () => {
    const want = expected(
      (story) =>
        story.text.includes("台") &&
        story.row.type === "photo" &&
        story.row.library_id === "product" &&
        story.orientation === "landscape" &&
        story.row.gps !== null &&
        story.authors.includes("张伟") &&
        (story.row.captured_at ?? "") >= "2023-03-01" &&
        (story.row.captured_at ?? "") < "2023-10-01",
    );
    const got = await findAll({
      fulltext: "台",
      libraryId: "product",
      types: ["photo"],
      orientation: "landscape",
      hasGps: true,
      author: ["张伟"],
      capturedFrom: "2023-03-01T00:00:00.000Z",
      capturedTo: "2023-10-01T00:00:00.000Z",
    });
    counts.combined = got.length;
    expect(got.sort()).toEqual(want);
    expect(want.length).toBeGreaterThan(0);

    const tagged = await findAll({ tag: ["突发"], source: ["新华社"], keywords: ["k0"], sort: "title" });
    expect(tagged.sort()).toEqual(
      expected(
        (story) => story.tags.includes("突发") && story.row.source === "新华社" && story.row.keywords === '["k0"]',
      ),
    );
    const uploaded = await findAll({
      uploadedFrom: "2024-02-01T00:00:00.000Z",
      uploadedTo: "2024-02-03T00:00:00.000Z",
    });
    expect(uploaded.sort()).toEqual(
      expected((story) => story.row.created_at >= "2024-02-01" && story.row.created_at < "2024-02-03"),
    );
    expect(await findAll({ fulltext: "zzzqqq" })).toEqual([]);
    expect(await findAll({ fulltext: '"" *' })).toEqual([]);
  });

  it("counts facets over the filtered result, through the API", async () => {
    const data = await callApi<{ totalElements: number; content: unknown[]; facets: Facets; number: number }>(
      ctx().app,
      admin,
      "GET",
      `/stories?fulltext=${encodeURIComponent("两会")}&types=photo,video&size=5&page=1`,
    );
    const matching = stories
      .filter(readable(LIBRARIES))
      .filter((story) => story.text.includes("两会") && ["photo", "video"].includes(story.row.type));
    expect(data.totalElements).toBe(matching.length);
    expect(data.content).toHaveLength(5);
    expect(data.number).toBe(1);
    const tally = (values: (string | null)[]) => {
      const map = new Map<string, number>();
      for (const value of values) if (value !== null) map.set(value, (map.get(value) ?? 0) + 1);
      return [...map].map(([value, count]) => ({ value, count }));
    };
    const bySet = (list: { value: string; count: number }[]) =>
      [...list].sort((a, b) => a.value.localeCompare(b.value));
    expect(bySet(data.facets.type)).toEqual(bySet(tally(matching.map((story) => story.row.type))));
    expect(bySet(data.facets.library)).toEqual(bySet(tally(matching.map((story) => story.row.library_id))));
    expect(bySet(data.facets.month)).toEqual(bySet(tally(matching.map((story) => story.month))));
    expect(bySet(data.facets.author)).toEqual(bySet(tally(matching.flatMap((story) => story.authors))));
    expect(bySet(data.facets.source)).toEqual(bySet(tally(matching.map((story) => story.row.source ?? null))));
    expect(bySet(data.facets.tag)).toEqual(bySet(tally(matching.flatMap((story) => story.tags))));
    // Most frequent first.
    const typeCounts = data.facets.type.map((facet) => facet.count);
    expect(typeCounts).toEqual([...typeCounts].sort((a, b) => b - a));
    console.log(`[${dialect}] facets of 两会 photo+video (${data.totalElements}):`, JSON.stringify(data.facets.type));

    // Without fulltext the list answers as before: no facets unless asked for.
    const plain = await callApi<{ facets?: Facets }>(ctx().app, admin, "GET", "/stories?size=1");
    expect(plain.facets).toBeUndefined();
  });

  it("looks at the newest matches only when more match than its window, and says so", async () => {
    const { db } = ctx();
    const window = 100;
    const search = new SearchRepository(db.kysely, db.adapter, index, window);
    const filter: SearchFilter = { libraryIds: [...LIBRARIES], viewerId: admin.id, fulltext: "press" };
    const matching = stories
      .filter(readable(LIBRARIES))
      .filter((story) => word("press").test(story.text))
      .sort((a, b) => b.row.created_at.localeCompare(a.row.created_at));
    expect(matching.length).toBeGreaterThan(window);
    const newest = matching.slice(0, window);
    const ids: string[] = [];
    for (let page = 0; page < 3; page++) {
      const found = await search.list(filter, { page, size: 40, sort: "title" });
      expect(found).toMatchObject({ total: window, capped: true });
      ids.push(...found.rows.map((row) => row.id));
    }
    expect(ids.sort()).toEqual(newest.map((story) => story.row.id).sort());
    const facets = await search.facets(filter);
    expect(facets.type.reduce((sum, facet) => sum + facet.count, 0)).toBe(window);
    const photos = newest.filter((story) => story.row.type === "photo").length;
    expect(facets.type.find((facet) => facet.value === "photo")?.count).toBe(photos);
    // Exactly as many as the window: all of them, not capped.
    const few = await search.list({ ...filter, fulltext: "walrus zzz" }, { page: 0, size: 10 });
    expect(few).toMatchObject({ total: 0, capped: false });
    const exact = new SearchRepository(db.kysely, db.adapter, index, matching.length);
    expect(await exact.list(filter, { page: 0, size: 1 })).toMatchObject({ total: matching.length, capped: false });

    // Through the API: the tag "news" is on every story, more than the default window.
    type Page = { totalElements: number; totalCapped?: boolean; content: unknown[]; facets?: Facets };
    const all = await callApi<Page>(ctx().app, admin, "GET", "/stories?fulltext=news&size=10&facets=false");
    expect(all.totalCapped).toBe(true);
    expect(all.totalElements).toBeLessThan(stories.length);
    expect(all.content).toHaveLength(10);
    expect(all.facets).toBeUndefined();
    const some = await callApi<Page>(ctx().app, admin, "GET", `/stories?fulltext=${encodeURIComponent("两会")}&size=1`);
    expect(some.totalCapped).toBeUndefined();
    expect(some.facets?.type.length).toBeGreaterThan(0);
  });

  it("takes the filters as query parameters: a bare end date includes its day, sort by size", async () => {
    type Page = { totalElements: number; content: { id: string; size: number }[] };
    const data = await callApi<Page>(
      ctx().app,
      admin,
      "GET",
      "/stories?capturedFrom=2023-05-15&capturedTo=2023-05-15&orientation=square&hasGps=false&sort=size&order=asc&size=1000",
    );
    const want = expected(
      (story) =>
        (story.row.captured_at ?? "").startsWith("2023-05-15") &&
        story.orientation === "square" &&
        story.row.gps === null,
    );
    expect(data.content.map((story) => story.id).sort()).toEqual(want);
    expect(data.totalElements).toBe(want.length);
    expect(want.length).toBeGreaterThan(0);
    const sizes = data.content.map((story) => story.size);
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
    await callApi(ctx().app, admin, "GET", "/stories?capturedFrom=yesterday", undefined, 400);
    await callApi(ctx().app, admin, "GET", "/stories?orientation=round", undefined, 400);
  });

  it("takes several values of a facet at once (any of them), as the facet panel sends them", async () => {
    type Page = { totalElements: number; content: { id: string }[] };
    const [first, second] = ["王芳", "张伟"];
    const months = ["2023-03", "2023-07"];
    const data = await callApi<Page>(
      ctx().app,
      admin,
      "GET",
      `/stories?author=${encodeURIComponent(`${first},${second}`)}&month=${months.join(",")}&size=1000`,
    );
    const want = expected(
      (story) => (story.authors.includes(first!) || story.authors.includes(second!)) && months.includes(story.month),
    );
    expect(want.length).toBeGreaterThan(0);
    expect(data.totalElements).toBe(want.length);
    expect(data.content.map((story) => story.id).sort()).toEqual(want);
    await callApi(ctx().app, admin, "GET", "/stories?month=2023-13", undefined, 400);
  });

  it("never shows stories of libraries the user cannot read", async () => {
    const mine = ["product", "material"] as const;
    const got = await findAll({ fulltext: "台风" }, "contributor");
    expect(got.sort()).toEqual(
      stories
        .filter((story) => mine.includes(story.row.library_id as never) && story.row.status !== "draft")
        .filter((story) => story.text.includes("台风"))
        .map((story) => story.row.id)
        .sort(),
    );
    const data = await callApi<{ facets: Facets }>(ctx().app, contributor, "GET", "/stories?fulltext=press&size=1");
    expect(data.facets.library.map((facet) => facet.value).sort()).toEqual(["material", "product"]);
    await callApi(ctx().app, contributor, "GET", "/stories?fulltext=press&libraryId=department", undefined, 404);
  });

  it("keeps the index in step with edits, extracted metadata and deletes", async () => {
    const target = stories.find((story) => story.row.status === "committed" && story.row.type === "photo")!;
    const lib = target.row.library_id;
    await module.stories.edit(adminActor, "photo", lib, target.row.id, {
      caption: "独角兽 zebra crossing",
      tags: ["斑马线"],
    });
    expect(await findAll({ fulltext: "独角" })).toEqual([target.row.id]);
    expect(await findAll({ fulltext: "zebra cross*" })).toEqual([target.row.id]);
    expect(await findAll({ tag: ["斑马线"] })).toEqual([target.row.id]);
    expect(await findAll({ fulltext: "独角兽", tag: ["news"] })).toEqual([]);

    await module.stories.applyExtractedMetadata(target.row.id, { properties: { lens: "Summilux 50" } });
    expect(await findAll({ fulltext: "summilux" })).toEqual([target.row.id]);

    // A new version goes through updateAtVersion: indexed only when it wins.
    const repository = new StoriesRepository(ctx().db.kysely, ctx().db.adapter, index);
    const versioned = stories[3]!.row;
    expect(await repository.updateAtVersion(versioned.id, 2, { original_name: "narwhal_tusk.tif" })).toBe(false);
    expect(await findAll({ fulltext: "narwhal" })).toEqual([]);
    expect(
      await repository.updateAtVersion(versioned.id, 1, { version_no: 2, original_name: "narwhal_tusk.tif" }),
    ).toBe(true);
    expect(await findAll({ fulltext: "narwhal" })).toEqual([versioned.id]);
    expect(await findAll({ fulltext: "img_3.jpg" })).toEqual([]);

    await module.stories.delete(adminActor, lib, target.row.id);
    expect(await findAll({ fulltext: "zebra" })).toEqual([]);
    expect(await findAll({ tag: ["斑马线"] })).toEqual([]);
    stories = stories.filter((story) => story !== target);
  });

  it("rebuilds the index with the same results (dams reindex), and rewrites an older format in place", async () => {
    const { db } = ctx();
    const { service } = buildSearch(db);
    const before = new Map<string, string[]>();
    for (const { query } of QUERIES) before.set(query, (await findAll({ fulltext: query })).sort());
    // The window (newest matches first) is the same after a rebuild: SQLite's rowids follow the uploads again.
    const windowed = new SearchRepository(db.kysely, db.adapter, index, 100);
    const press: SearchFilter = { libraryIds: [...LIBRARIES], viewerId: admin.id, fulltext: "press" };
    const newest = async () => (await windowed.list(press, { page: 0, size: 100 })).rows.map((row) => row.id).sort();
    const newestBefore = await newest();
    const same = async () => {
      for (const { query } of QUERIES)
        expect((await findAll({ fulltext: query })).sort(), query).toEqual(before.get(query));
      expect(await newest()).toEqual(newestBefore);
    };
    await index.clear(db.kysely);
    expect(await findAll({ fulltext: "台" })).toEqual([]);
    const indexed = await service.rebuild();
    expect(indexed).toBe(stories.length);
    await same();
    console.log(`[${dialect}] reindex: ${indexed} stories; same results for ${QUERIES.length} queries`);

    // An index of an older format (an upgrade) is rewritten once, in place, by `dams serve`.
    expect(await service.refreshIfStale()).toBeNull();
    await db.kysely
      .updateTable("search_format")
      .set({ version: SEARCH_FORMAT - 1 })
      .execute();
    const batches: number[] = [];
    expect(await service.refreshIfStale((done) => batches.push(done))).toBe(stories.length);
    expect(batches.at(-1)).toBe(stories.length);
    expect(await storedFormat(db.kysely)).toBe(SEARCH_FORMAT);
    expect(await service.refreshIfStale()).toBeNull();
    await same();
  }, 600_000);
});
