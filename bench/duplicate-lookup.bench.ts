import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Kysely, sql } from "kysely";
import { openDatabase } from "../server/src/db/database.js";
import { storiesHashIndex } from "../server/src/db/migrations/0020-stories-hash-index.js";
import type { Database } from "../server/src/db/schema.js";
import { StoriesRepository } from "../server/src/modules/stories/stories.repository.js";
import { dropBenchDatabase, prepareStories } from "./bench-data.js";
import { LoadSampler } from "./machine.js";

/**
 * The upload's exact-duplicate lookup (`StoriesRepository.withSha256`: the
 * stories of the library with the same SHA-256, which every upload asks) at
 * BENCH_STORIES (default 100 000) generated stories, on SQLite and
 * PostgreSQL, with the index before migration 0020 (every story's
 * (library_id, content_sha256)) and after it (the stories that have a hash
 * only), rounds alternated (the migration's down and up between them). The
 * data is the search bench's: stories without a hash, analysed (SQLite
 * ANALYZE, PostgreSQL VACUUM ANALYZE), plus BENCH_HASHED (default 300) stories
 * with a hash inserted after, as a batch just uploaded: statistics taken
 * while no story had a hash, the state in which SQLite walked the library.
 * On SQLite each index's statistics are those of that moment (taken with
 * each index before the hashed stories are inserted, put back in
 * sqlite_stat1 at each swap); PostgreSQL's are per column and stay as the
 * load left them. `BENCH_ANALYZE=1` analyses after each swap instead, with
 * the hashed stories there. Prints the plan (EXPLAIN) and the milliseconds
 * per lookup (p50/p95 of BENCH_LOOKUPS per round, half of them hashes that
 * are there), in-process through the repository, and the load.
 *
 *   npm run bench:duplicate-lookup -w bench   (BENCH_DIALECTS=sqlite,postgres)
 */
const storyCount = Number(process.env.BENCH_STORIES ?? 100_000);
const hashedCount = Number(process.env.BENCH_HASHED ?? 300);
const lookups = Number(process.env.BENCH_LOOKUPS ?? 100);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const dialects = (process.env.BENCH_DIALECTS ?? "sqlite,postgres").split(",");
const analyzeAfterSwap = process.env.BENCH_ANALYZE === "1";
const postgresUrl = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

async function insertHashed(kysely: Kysely<Database>, count: number): Promise<string[]> {
  const now = Date.now();
  const hashes = Array.from({ length: count }, () => randomBytes(32).toString("hex"));
  const rows = hashes.map((hash, index) => ({
    id: randomUUID(),
    library_id: index % 10 < 7 ? "product" : "material",
    type: "photo" as const,
    half_product: false,
    status: "draft" as const,
    title: `upload ${index}`,
    caption: "",
    authors: "[]",
    keywords: "[]",
    tags: "[]",
    properties: "{}",
    oid: randomUUID(),
    version_no: 1,
    content_sha256: hash,
    processing_state: "queued" as const,
    created_at: new Date(now + index).toISOString(),
    updated_at: new Date(now + index).toISOString(),
  }));
  for (let offset = 0; offset < rows.length; offset += 100)
    await kysely
      .insertInto("stories")
      .values(rows.slice(offset, offset + 100))
      .execute();
  return hashes;
}

type State = "before" | "after";
type StatRow = { tbl: string; idx: string | null; stat: string };

/** SQLite: the stories table's statistics as ANALYZE takes them with this state's index. */
async function statsOf(kysely: Kysely<Database>): Promise<StatRow[]> {
  await sql`analyze`.execute(kysely);
  const { rows } = await sql<StatRow>`select tbl, idx, stat from sqlite_stat1 where tbl = 'stories'`.execute(kysely);
  return rows;
}

/** SQLite: puts those statistics back and has the planner read them again. */
async function restoreStats(kysely: Kysely<Database>, rows: StatRow[]): Promise<void> {
  await sql`delete from sqlite_stat1 where tbl = 'stories'`.execute(kysely);
  for (const row of rows)
    await sql`insert into sqlite_stat1 (tbl, idx, stat) values (${row.tbl}, ${row.idx}, ${row.stat})`.execute(kysely);
  await sql`analyze sqlite_schema`.execute(kysely);
}

async function plan(kysely: Kysely<Database>, dialect: string, hash: string): Promise<string> {
  const query = kysely
    .selectFrom("stories")
    .selectAll()
    .where("library_id", "in", ["product"])
    .where("content_sha256", "=", hash)
    .orderBy("created_at")
    .compile();
  const explain = dialect === "sqlite" ? "explain query plan " : "explain ";
  const { rows } = await kysely.executeQuery<Record<string, unknown>>({ ...query, sql: explain + query.sql });
  return rows.map((row) => String(row.detail ?? row["QUERY PLAN"])).join(" | ");
}

for (const dialect of dialects) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dams-bench-dup-"));
  const sampler = new LoadSampler();
  try {
    const started = performance.now();
    const { database } = await prepareStories(dialect, dataDir, storyCount, postgresUrl);
    const db = openDatabase(database);
    try {
      const stats: Partial<Record<State, StatRow[]>> = {};
      if (dialect === "sqlite" && !analyzeAfterSwap) {
        await storiesHashIndex().down(db.kysely);
        stats.before = await statsOf(db.kysely);
        await storiesHashIndex().up(db.kysely);
        stats.after = await statsOf(db.kysely);
      }
      const hashes = await insertHashed(db.kysely, hashedCount);
      console.log(
        `\n${dialect}: ${storyCount} stories without a hash + ${hashedCount} with one (statistics ${analyzeAfterSwap ? "taken after each swap" : "of before they came"}), loaded in ${((performance.now() - started) / 1000).toFixed(0)} s`,
      );
      const repository = new StoriesRepository(db.kysely, db.adapter, { onStoriesChanged: async () => {} });
      const product = hashes.filter((_, index) => index % 10 < 7);
      const timings: Record<State, number[]> = { before: [], after: [] };
      const plans: Record<string, string> = {};
      let found = 0;
      let current: State = "after"; // as the migrations left it
      for (let round = 0; round < rounds; round++) {
        for (const state of round % 2 ? (["after", "before"] as const) : (["before", "after"] as const)) {
          if (state !== current) await storiesHashIndex()[state === "before" ? "down" : "up"](db.kysely);
          current = state;
          if (analyzeAfterSwap) await sql`analyze`.execute(db.kysely);
          else if (stats[state]) await restoreStats(db.kysely, stats[state]);
          plans[state] = await plan(db.kysely, dialect, product[0]!);
          for (let index = 0; index < lookups; index++) {
            // Half the lookups find the story just uploaded, half a hash the library does not hold.
            const hash = index % 2 ? product[index % product.length]! : randomBytes(32).toString("hex");
            const t0 = performance.now();
            const rows = await repository.withSha256(["product"], hash);
            timings[state].push(performance.now() - t0);
            found += rows.length;
          }
        }
      }
      for (const state of ["before", "after"] as const) {
        const values = timings[state];
        console.log(
          `  ${state === "before" ? "before 0020 (full index)  " : "after 0020 (partial index)"}: p50 ${percentile(values, 50).toFixed(2)} ms, p95 ${percentile(values, 95).toFixed(2)} ms per lookup (${values.length} lookups in ${rounds} rounds)`,
        );
        console.log(`    plan: ${plans[state]}`);
        const hashIndex = stats[state]?.find((row) => row.idx?.startsWith("stories_library_"));
        if (hashIndex) console.log(`    sqlite_stat1 of ${hashIndex.idx}: ${hashIndex.stat}`);
      }
      if (found !== rounds * lookups) throw new Error(`found ${found} duplicates, expected ${rounds * lookups}`);
      console.log(`  ${sampler.stop()}`);
    } finally {
      await db.close();
    }
  } finally {
    sampler.stop();
    if (dialect === "postgres") await dropBenchDatabase(postgresUrl);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
