import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import { openDatabase } from "../server/src/db/database.js";
import { createSearchIndex } from "../server/src/modules/search/search.compose.js";
import { SearchRepository } from "../server/src/modules/search/search.repository.js";
import { LIST_COUNT_CAP, type SearchFilter } from "../server/src/modules/search/search.schema.js";
import { prepareSearchDatabase } from "./bench-data.js";
import { LoadSampler } from "./machine.js";

/**
 * The total of a list without full text (a library browsed, filters only),
 * before and after it was bounded (issue 20, docs/scale.md section 1): the
 * exact `count(*)` every page view ran, against the count up to
 * LIST_COUNT_CAP + 1 and, above it, the estimate (PostgreSQL: the planner's,
 * by EXPLAIN; SQLite: sqlite_stat1's). Both run alternately in the same
 * process over the same data (bench/search-data.ts: 70 % of the stories in
 * `product`, 30 % in `material`), and so does the first page of 100 as the
 * API's list reads it, with the old total and the new. The statistics are
 * those the maintenance job keeps (DialectAdapter.refreshStatistics). Prints p50/p95, the
 * ratios, how close each estimate came, and the machine's load.
 *
 *   SEARCH_BENCH_SIZE=1000000 SEARCH_BENCH_DIALECT=postgres npx tsx list-count.bench.ts
 *   SEARCH_BENCH_KEEP=<dir> (keep the loaded data and reuse it, as bench:search does; the PostgreSQL
 *   database is `dams_list_count_<size>`, which `createdb -T dams_bench_<size>` can copy from bench:search's)
 *   LIST_COUNT_SAMPLES=30 (per list and form)
 */
const storyCount = Number(process.env.SEARCH_BENCH_SIZE ?? 1_000_000);
const dialects = (process.env.SEARCH_BENCH_DIALECT ?? "postgres").split(",");
const keep = process.env.SEARCH_BENCH_KEEP;
const postgresUrl = process.env.SEARCH_BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const samples = Number(process.env.LIST_COUNT_SAMPLES ?? 30);

const LISTS: { name: string; filter: Omit<SearchFilter, "viewerId"> }[] = [
  { name: "library product", filter: { libraryIds: ["product"] } },
  { name: "library material", filter: { libraryIds: ["material"] } },
  { name: "product, videos", filter: { libraryIds: ["product"], types: ["video"] } },
  { name: "product, uploaded in 2024", filter: { libraryIds: ["product"], uploadedFrom: "2024-01-01T00:00:00.000Z" } },
  { name: "both libraries", filter: { libraryIds: ["product", "material"] } },
  {
    name: "product, uploaded on one day",
    filter: {
      libraryIds: ["product"],
      uploadedFrom: "2022-03-01T00:00:00.000Z",
      uploadedTo: "2022-03-02T00:00:00.000Z",
    },
  },
];

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

/** Runs `before` and `after` alternately (the order flipping), `samples` times each, after one warm-up each. */
async function alternate(before: () => Promise<unknown>, after: () => Promise<unknown>) {
  await before();
  await after();
  const times = { before: [] as number[], after: [] as number[] };
  for (let i = 0; i < samples; i++) {
    if (i % 2 === 0) {
      times.before.push(await timed(before));
      times.after.push(await timed(after));
    } else {
      times.after.push(await timed(after));
      times.before.push(await timed(before));
    }
  }
  return times;
}

const ms = (values: number[]) => `${percentile(values, 50).toFixed(1)}/${percentile(values, 95).toFixed(1)}`;
const error = (estimate: number, exact: number) =>
  `${estimate.toFixed(0)} (${estimate >= exact ? "+" : ""}${(((estimate - exact) / exact) * 100).toFixed(0)} %)`;

async function benchDialect(dialect: string): Promise<void> {
  console.log(`\n${dialect}, ${storyCount} stories, cap ${LIST_COUNT_CAP}:`);
  // A database of its own (bench:search's is dams_bench_<size>, which a run without SEARCH_BENCH_KEEP drops).
  const name = `dams_list_count_${storyCount}`;
  const { database, cleanUp } = await prepareSearchDatabase({ dialect, storyCount, keep, postgresUrl, name });
  const db = openDatabase(database);
  try {
    const viewer = await db.kysely
      .selectFrom("users")
      .select("id")
      .where("username", "=", "bench")
      .executeTakeFirstOrThrow();
    // The statistics the maintenance job keeps (SQLite: PRAGMA optimize=0x10002, which writes sqlite_stat1).
    await db.adapter.refreshStatistics(db.kysely);
    const index = createSearchIndex(db.kysely, db.adapter);
    const bounded = new SearchRepository(db.kysely, db.adapter, index);
    // A cap of 0 counts every page exactly: the list as it was.
    const exact = new SearchRepository(db.kysely, db.adapter, index, undefined, 0);
    const load = new LoadSampler();
    console.log(
      "  | list | stories | answered | total before (exact count) p50/p95 ms | total after (bounded count, estimate) p50/p95 ms | ratio (p50) | page 0 before p50/p95 ms | page 0 after p50/p95 ms | ratio (p50) | estimate: planner / stat1 | reltuples × library share |\n  |---|---|---|---|---|---|---|---|---|---|---|",
    );
    for (const { name, filter: partial } of LISTS) {
      const filter: SearchFilter = { ...partial, viewerId: viewer.id };
      const page = { page: 0, size: 100 } as const;
      const countExact = bounded.countQuery(filter, false);
      const stories = Number((await db.kysely.executeQuery<{ count: number }>(countExact)).rows[0]!.count);
      const answered = await bounded.total(filter, page);
      const counts = await alternate(
        () => exact.total(filter, page),
        () => bounded.total(filter, page),
      );
      const pages = await alternate(
        () => exact.list(filter, page),
        () => bounded.list(filter, page),
      );
      let share = "";
      if (dialect === "postgres") {
        const { rows } = await sql<{ reltuples: number; vals: string[] | null; freqs: number[] | null }>`select
            c.reltuples::float8 as reltuples, s.most_common_vals::text::text[] as vals, s.most_common_freqs as freqs
          from pg_class c left join pg_stats s on s.tablename = 'stories' and s.attname = 'library_id'
            and s.schemaname = current_schema()
          where c.relname = 'stories' and c.relnamespace = current_schema()::regnamespace`.execute(db.kysely);
        const stats = rows[0]!;
        const freq = filter.libraryIds.reduce(
          (sum, library) => sum + (stats.freqs?.[stats.vals?.indexOf(library) ?? -1] ?? 0),
          0,
        );
        share = error(stats.reltuples * freq, stories);
      }
      const ratio = (before: number[], after: number[]) =>
        `${(percentile(before, 50) / Math.max(0.01, percentile(after, 50))).toFixed(1)}×`;
      console.log(
        `  | ${name} | ${stories} | ${answered.total}${answered.estimated ? " (estimated)" : ""} | ${ms(counts.before)} | ${ms(counts.after)} | ${ratio(counts.before, counts.after)} | ${ms(pages.before)} | ${ms(pages.after)} | ${ratio(pages.before, pages.after)} | ${answered.estimated ? error(answered.total, stories) : "counted"} | ${share} |`,
      );
    }
    console.log(`  ${load.stop()}`);
  } finally {
    await db.close();
    await cleanUp();
  }
}

for (const dialect of dialects) await benchDialect(dialect);
