import { randomUUID } from "node:crypto";
import { CompiledQuery, sql } from "kysely";
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

  it("finds the same window walking a common term's newest entries (PostgreSQL) as gathering every match", async () => {
    const { db } = ctx();
    // The walk needs the planner's statistics (autovacuum gathers them on a live server).
    if (dialect === "postgres") await sql`analyze story_search`.execute(db.kysely);
    const window = 60;
    const search = new SearchRepository(db.kysely, db.adapter, index, window);
    const cases: { filter: Omit<SearchFilter, "libraryIds" | "viewerId">; keep: (story: Generated) => boolean }[] = [
      { filter: { fulltext: "press" }, keep: () => true },
      { filter: { fulltext: "press", types: ["video"] }, keep: (story) => story.row.type === "video" },
      {
        filter: { fulltext: "台风", types: ["photo", "audio"], capturedFrom: "2023-06-01T00:00:00.000Z" },
        keep: (story) =>
          ["photo", "audio"].includes(story.row.type) && (story.row.captured_at ?? "") >= "2023-06-01T00:00:00.000Z",
      },
      // Rare among the newest: the walk reads its 50 windows of entries, then gathers the older matches.
      {
        filter: { fulltext: "press", capturedTo: "2023-02-01T00:00:00.000Z" },
        keep: (story) => (story.row.captured_at ?? "9") < "2023-02-01T00:00:00.000Z",
      },
    ];
    for (const { filter, keep } of cases) {
      const text = filter.fulltext!;
      const matching = stories
        .filter(readable(LIBRARIES))
        .filter((story) => (/^[a-z]+$/.test(text) ? word(text).test(story.text) : story.text.includes(text)))
        .filter(keep)
        .sort((a, b) => b.row.created_at.localeCompare(a.row.created_at));
      expect(matching.length, text).toBeGreaterThan(window);
      const found = await search.list(
        { libraryIds: [...LIBRARIES], viewerId: admin.id, ...filter },
        { page: 0, size: window, sort: "date" },
      );
      expect(found, JSON.stringify(filter)).toMatchObject({ total: window, capped: true });
      expect(
        found.rows.map((row) => row.id),
        JSON.stringify(filter),
      ).toEqual(matching.slice(0, window).map((story) => story.row.id));
    }
  });

  it("reads a page in the second half of a long list from its end: the rows of the forward query", async () => {
    const { db } = ctx();
    const search = new SearchRepository(db.kysely, db.adapter, index);
    const filter: SearchFilter = { libraryIds: [...LIBRARIES], viewerId: admin.id };
    const total = (await search.list(filter, { page: 0, size: 1 })).total;
    const size = 700;
    const last = Math.ceil(total / size) - 1;
    expect(total % size, "the last page is partial").toBeGreaterThan(0);
    for (const sort of ["updated", "date", "captured", "title", "size", "relevance"] as const)
      for (const order of [undefined, "asc", "desc"] as const)
        for (const page of [last - 2, last - 1, last, last + 1]) {
          const asked = { page, size, sort, order };
          const found = await search.list(filter, asked);
          const want = (await db.kysely.executeQuery<{ id: string }>(search.listQuery(filter, asked))).rows.map(
            (row) => row.id,
          );
          const label = `${sort} ${order} page ${page}`;
          expect(found.total, label).toBe(total);
          expect(found.rows.length, label).toBe(page > last ? 0 : page === last ? total % size : size);
          expect(
            found.rows.map((row) => row.id),
            label,
          ).toEqual(want);
        }
  });

  it("counts a list without full text up to its cap and answers an estimate above it, flagged; pages stay exact", async () => {
    const { db } = ctx();
    const cap = 100;
    const bounded = new SearchRepository(db.kysely, db.adapter, index, undefined, cap);
    const exact = new SearchRepository(db.kysely, db.adapter, index);
    const ids = (rows: { id: string }[]) => rows.map((row) => row.id);
    const filter: SearchFilter = { libraryIds: ["product"], viewerId: admin.id };
    const all = await exact.list(filter, { page: 0, size: 10 });
    expect(all.estimated, "5 000 stories are below the default cap").toBe(false);
    expect(all.total).toBeGreaterThan(cap);

    // The statistics an estimate reads, as production keeps them (autovacuum; the maintenance job's PRAGMA
    // optimize), here whole: SQLite's sampled ones can know less than the count (below).
    await sql`analyze`.execute(db.kysely);
    // Above the cap: an estimate, flagged, never at or below the cap; the page is the exact one.
    const above = await bounded.list(filter, { page: 0, size: 10 });
    expect(above).toMatchObject({ estimated: true, capped: false });
    expect(above.total).toBeGreaterThan(cap);
    expect(ids(above.rows)).toEqual(ids(all.rows));
    console.log(`[${dialect}] estimated total of the product library: ${above.total} (exactly ${all.total})`);
    // A page that ends within the cap is bounded too; one that ends beyond it is counted exactly.
    const last = await bounded.list(filter, { page: 9, size: 10 });
    expect(last.estimated).toBe(true);
    expect(ids(last.rows)).toEqual(ids((await exact.list(filter, { page: 9, size: 10 })).rows));
    for (const page of [10, Math.floor(all.total / 10)]) {
      const beyond = await bounded.list(filter, { page, size: 10, sort: "date" });
      expect(beyond, `page ${page}`).toMatchObject({ total: all.total, estimated: false });
      expect(ids(beyond.rows), `page ${page}`).toEqual(
        ids((await exact.list(filter, { page, size: 10, sort: "date" })).rows),
      );
    }

    // An estimate that is missing, or not above the cap the count has passed, is not believed: the exact count.
    for (const estimate of [null, cap]) {
      const blind = new Proxy(index, {
        get: (target, key) =>
          key === "estimateList"
            ? async () => estimate
            : typeof Reflect.get(target, key) === "function"
              ? Reflect.get(target, key).bind(target)
              : Reflect.get(target, key),
      });
      const counted = new SearchRepository(db.kysely, db.adapter, blind, undefined, cap);
      expect(await counted.list(filter, { page: 0, size: 10 }), `estimate ${estimate}`).toMatchObject({
        total: all.total,
        estimated: false,
      });
    }

    // At or below the cap: the exact count.
    const narrow: SearchFilter = {
      ...filter,
      uploadedFrom: "2024-01-01T00:00:00.000Z",
      uploadedTo: "2024-01-03T00:00:00.000Z",
    };
    const want = (await exact.list(narrow, { page: 0, size: 1 })).total;
    expect(want).toBeGreaterThan(0);
    expect(want).toBeLessThanOrEqual(cap);
    expect(await bounded.list(narrow, { page: 0, size: 10 })).toMatchObject({ total: want, estimated: false });
    const atCap = new SearchRepository(db.kysely, db.adapter, index, undefined, all.total);
    expect(await atCap.list(filter, { page: 0, size: 10 })).toMatchObject({ total: all.total, estimated: false });

    // The API says nothing of an estimate for a counted list.
    type Page = { totalElements: number; totalEstimated?: boolean };
    const page = await callApi<Page>(ctx().app, admin, "GET", "/stories?libraryId=product&size=1");
    expect(page).toMatchObject({ totalElements: all.total });
    expect(page.totalEstimated).toBeUndefined();
  });

  it("orders a full-text page in the window as the SQL page query does, for every sort and direction", async () => {
    const { db } = ctx();
    const search = new SearchRepository(db.kysely, db.adapter, index);
    const filter: SearchFilter = { libraryIds: [...LIBRARIES], viewerId: admin.id, fulltext: "press" };
    for (const sort of ["relevance", "date", "captured", "updated", "size"] as const)
      for (const order of [undefined, "asc", "desc"] as const)
        for (const page of [0, 3]) {
          const asked = { page, size: 40, sort, order };
          const got = (await search.list(filter, asked)).rows.map((row) => row.id);
          const want = (await db.kysely.executeQuery<{ id: string }>(search.listQuery(filter, asked))).rows.map(
            (row) => row.id,
          );
          expect(got, `${sort} ${order} page ${page}`).toHaveLength(40);
          expect(got, `${sort} ${order} page ${page}`).toEqual(want);
        }
  });

  it("serves filtered searches from indexes, not by scanning the stories (query plans)", async () => {
    const { db } = ctx();
    const filters: { name: string; filter: Omit<SearchFilter, "libraryIds" | "viewerId">; sort?: "date" }[] = [
      { name: "fulltext 台风 in one library, photos", filter: { fulltext: "台风", types: ["photo"] } },
      {
        name: "fulltext press conf* + captured range",
        filter: { fulltext: "press conf*", capturedFrom: "2023-05-01" },
      },
      { name: "library by upload date", filter: {}, sort: "date" },
      { name: "author filter", filter: { author: ["张伟"] }, sort: "date" },
    ];
    const plans: Record<string, string> = {};
    // What autovacuum does on a live server: statistics, and GIN's pending list merged into the index.
    await sql`${sql.raw(dialect === "postgres" ? "vacuum analyze" : "analyze")}`.execute(db.kysely);
    await db.kysely.transaction().execute(async (trx) => {
      // A 5 000-row table is small enough that a sequential scan is cheapest: forbid it to see that an index path exists.
      if (dialect === "postgres") await sql`set local enable_seqscan = off`.execute(trx);
      const search = new SearchRepository(trx, db.adapter, index);
      for (const { name, filter, sort } of filters) {
        const asked = { libraryIds: ["product"], viewerId: admin.id, ...filter };
        // A full-text search runs its window query (on PostgreSQL, a common term's walk over the newest entries of
        // the type, here 300 of them against 100 000 on a large library, or the matches gathered), then reads the
        // page's stories by key.
        const type = filter.types?.length === 1 ? filter.types[0] : undefined;
        const queries = filter.fulltext
          ? [
              { form: "gathered", query: search.windowQuery(asked, sort) },
              ...(dialect === "postgres"
                ? [{ form: "walked", query: search.windowQuery(asked, sort, { newest: 300, type }) }]
                : []),
            ]
          : [
              { form: "list", query: search.listQuery(asked, { page: 0, size: 50, sort }) },
              { form: "count", query: search.countQuery(asked) },
            ];
        for (const { form, query } of queries) {
          const label = `${name} (${form})`;
          const explain = dialect === "sqlite" ? "explain query plan " : "explain ";
          const result = await trx.executeQuery<Record<string, unknown>>(
            CompiledQuery.raw(explain + query.sql, [...query.parameters]),
          );
          const plan = result.rows
            .map((row) => String(dialect === "sqlite" ? row.detail : row["QUERY PLAN"]))
            .join("\n");
          plans[label] = plan;
          if (dialect === "sqlite") {
            expect(plan, label).not.toMatch(/SCAN stories\b/);
            expect(plan, label).not.toMatch(/SCAN story_search_keys/);
          } else {
            expect(plan, label).not.toMatch(/Seq Scan on (stories|story_search|story_terms)/);
            // An index scan without an index condition reads the whole index (a full scan too), unless it is
            // read in order under a LIMIT (a walk), or it is the partial index of the one type asked for.
            const typeIndex = type ? new RegExp(`story_search_${type}_created_idx`) : /$^/;
            for (const node of plan.split("->").filter((part) => /Index( Only)? Scan/.test(part))) {
              if (/Scan Backward|ORDER BY|Order By|Index Cond/.test(node) || typeIndex.test(node)) continue;
              expect(form === "walked" && /story_search_(created_id|\w+_created)_idx/.test(node), label).toBe(true);
            }
            if (form === "walked")
              expect(plan, label).toMatch(/Limit[\s\S]*Limit[\s\S]*Index Scan using story_search_/);
          }
          // A library's total without other filters is counted from one index (status and creator for the drafts rule).
          if (form === "count" && Object.keys(filter).length === 0)
            expect(plan, label).toMatch(
              dialect === "sqlite"
                ? /USING COVERING INDEX stories_library_visible_idx/
                : /Index Only Scan using stories_library_visible_idx/,
            );
          if (filter.fulltext) {
            expect(plan, label).toMatch(
              dialect === "sqlite"
                ? /VIRTUAL TABLE INDEX/
                : /story_search_tsv_idx|story_search_created_id_idx|story_search_\w+_created_idx/,
            );
            // The window is found in the index alone: stories is not read.
            const storiesReads = plan.split("\n").filter((line) => /\bstories\b/.test(line));
            expect(storiesReads, label).toEqual([]);
          }
        }
      }
    });
    for (const [name, plan] of Object.entries(plans)) console.log(`[${dialect}] plan — ${name}:\n${plan}`);
  });
});
