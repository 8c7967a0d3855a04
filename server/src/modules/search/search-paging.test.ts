import { CompiledQuery, sql } from "kysely";
import { beforeAll, expect, it } from "vitest";
import { callApi } from "../../test/api-call.js";
import { describeEachDialect } from "../../test/dialects.js";
import type { TestPrincipal } from "../../test/principals.js";
import { SearchRepository } from "./search.repository.js";
import type { SearchFilter } from "./search.schema.js";
import { type Generated, LIBRARIES, useSearchData, word } from "./search.test-support.js";
import type { SearchIndex } from "./search-index.js";

/** How the list pages, counts and windows 5 000 stories, and the query plans it runs (search.test.ts: what it finds). */
describeEachDialect("search paging", (dialect) => {
  const { ctx, data, readable } = useSearchData(dialect);
  let index: SearchIndex;
  let admin: TestPrincipal;
  let stories: Generated[];

  // After the fixture's own beforeAll (hooks run in the order they were registered).
  beforeAll(() => {
    ({ index, admin, stories } = data);
  });

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
