import { randomUUID } from "node:crypto";
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import pg from "pg";
import { buildApp } from "../server/src/app.js";
import { type DatabaseConfig, loadConfig } from "../server/src/config.js";
import { type Db, openDatabase } from "../server/src/db/database.js";
import { ApiTokensRepository } from "../server/src/modules/api-tokens/api-tokens.repository.js";
import { ApiTokensService } from "../server/src/modules/api-tokens/api-tokens.service.js";
import { type SearchFilter, SearchRepository } from "../server/src/modules/search/search.repository.js";
import { UsersRepository } from "../server/src/modules/users/users.repository.js";
import { UsersService } from "../server/src/modules/users/users.service.js";

/**
 * Search latency through the API (HTTP on loopback, one keep-alive client,
 * the whole stack: auth, validation, search, facets, serialisation) against
 * the same search run directly on the repository (the SQL the API runs,
 * without HTTP), on SQLite and PostgreSQL, over generated stories with
 * Chinese and English metadata. Prints p50/p95/p99 and checks the targets of
 * issue 5: API p95 ≤ 1.2 × direct p95 + 1 ms; p95 ≤ 50 ms for every query type;
 * a filtered query never more than 3 × its unfiltered time.
 *
 *   npm run bench:search -w bench                       (100 000 stories, both dialects)
 *   BENCH_STORIES=1000000 BENCH_DIALECTS=sqlite npm run bench:search -w bench
 */
const storyCount = Number(process.env.BENCH_STORIES ?? 100_000);
const samples = Number(process.env.BENCH_SAMPLES ?? 200);
const dialects = (process.env.BENCH_DIALECTS ?? "sqlite,postgres").split(",");
const postgresUrl = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

const CHINESE = ["台风", "两会", "发布会", "上海", "北京", "暴雨", "记者会", "春运", "航天", "足球", "新冠", "选举"];
const ENGLISH = [
  "press",
  "conference",
  "typhoon",
  "election",
  "budget",
  "flood",
  "football",
  "summit",
  "market",
  "rocket",
];
const AUTHORS = ["张三", "李四", "王五", "Alice Chen", "Bob Smith", "赵六"];
const TAGS = ["要闻", "体育", "财经", "world", "local", "feature"];
const TYPES = ["photo", "video", "audio", "composite"] as const;

/** A deterministic generator, so both dialects get the same stories. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)]!;
}

async function seed(db: Db, creatorId: string): Promise<void> {
  const next = random(42);
  const started = performance.now();
  const batch = 500;
  for (let offset = 0; offset < storyCount; offset += batch) {
    const rows = [];
    for (let i = offset; i < Math.min(storyCount, offset + batch); i++) {
      const words = [pick(next, CHINESE), pick(next, CHINESE), pick(next, ENGLISH), pick(next, ENGLISH)];
      const pressConference = next() < 0.05 ? " press conference" : "";
      const created = new Date(Date.UTC(2020, 0, 1) + Math.floor(next() * 5 * 365 * 86_400_000)).toISOString();
      rows.push({
        id: randomUUID(),
        library_id: next() < 0.7 ? "product" : "material",
        folder_id: null,
        type: pick(next, TYPES),
        half_product: false,
        status: "committed" as const,
        title: `${words[0]}${words[2]} ${i}`,
        caption: `${words[0]}现场 ${words[1]}消息 ${words[2]} ${words[3]}${pressConference}`,
        authors: JSON.stringify([pick(next, AUTHORS)]),
        source: "新华社",
        keywords: JSON.stringify([words[1]]),
        tags: JSON.stringify([pick(next, TAGS)]),
        theme: null,
        category: null,
        properties: JSON.stringify({ camera: pick(next, ["Canon EOS R5", "Nikon Z9", "Sony A1"]) }),
        oid: randomUUID(),
        version_no: 1,
        cover_key: null,
        content_sha256: null,
        perceptual_hash: null,
        width: 4000,
        height: next() < 0.7 ? 3000 : 5000,
        duration: null,
        size: Math.floor(next() * 10_000_000),
        mime: "image/jpeg",
        original_name: `IMG_${i}.jpg`,
        captured_at: created,
        gps: null,
        processing_state: "done" as const,
        processing_error: null,
        created_by: creatorId,
        created_at: created,
        updated_by: creatorId,
        updated_at: created,
      });
    }
    await db.kysely.insertInto("stories").values(rows).execute();
  }
  const inserted = performance.now();
  const indexed = await new SearchRepository(db.kysely, db.adapter).rebuild(1000);
  console.log(
    `  seeded ${storyCount} stories in ${((inserted - started) / 1000).toFixed(1)} s, indexed ${indexed} in ${((performance.now() - inserted) / 1000).toFixed(1)} s`,
  );
}

interface QueryCase {
  name: string;
  params: Record<string, string>;
  /** The unfiltered query this one narrows, for the 3× rule. */
  narrows?: string;
}

const CASES: QueryCase[] = [
  { name: "single term (typhoon)", params: { fulltext: "typhoon" } },
  { name: "two Chinese characters (台风)", params: { fulltext: "台风" } },
  { name: 'phrase ("press conference")', params: { fulltext: '"press conference"' } },
  { name: "substring (发布会 inside 记者会/发布会 text)", params: { fulltext: "布会" } },
  {
    name: "term + type + date, by date (台风)",
    params: { fulltext: "台风", types: "photo", capturedFrom: "2023-01-01", sort: "date" },
    narrows: "two Chinese characters (台风)",
  },
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function stats(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99) };
}

async function time(run: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 10; i++) await run(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return times;
}

function filterOf(params: Record<string, string>, viewerId: string): SearchFilter {
  return {
    libraryIds: ["product", "material", "personal", "department", "publish"],
    viewerId,
    fulltext: params.fulltext,
    types: params.types ? (params.types.split(",") as SearchFilter["types"]) : undefined,
    capturedFrom: params.capturedFrom ? new Date(params.capturedFrom).toISOString() : undefined,
  };
}

async function benchDialect(dialect: string): Promise<boolean> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dams-bench-search-"));
  let database: DatabaseConfig;
  let drop = async () => {};
  if (dialect === "sqlite") {
    database = { kind: "sqlite", file: path.join(dataDir, "dams.sqlite") };
  } else {
    const name = `dams_bench_${Date.now()}`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(postgresUrl);
    url.pathname = `/${name}`;
    database = { kind: "postgres", url: url.toString() };
    drop = async () => {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    };
  }
  const db = openDatabase(database);
  try {
    await db.migrateToLatest();
    const users = new UsersService(new UsersRepository(db));
    const user = await users.createUser({ username: "bench", password: "bench-password-1", admin: true });
    const { secret } = await new ApiTokensService(new ApiTokensRepository(db)).create(user.id, { name: "bench" });
    console.log(`\n${dialect}:`);
    await seed(db, user.id);
    if (dialect === "postgres") await sql`vacuum analyze`.execute(db.kysely);

    const config = {
      ...loadConfig({ DAMS_DATA_DIR: dataDir, DAMS_LOG_LEVEL: "silent", DAMS_WORKERS: "0" }),
      database,
    };
    const app = await buildApp({ config, db, logger: false });
    await app.listen({ port: 0, host: "127.0.0.1" });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/dams/api/v1/stories`;
    const repository = new SearchRepository(db.kysely, db.adapter);
    let allMet = true;
    const p95s = new Map<string, number>();
    console.log(
      "  query                                          direct p50/p95/p99 ms    API p50/p95/p99 ms   API p95 / (direct p95 + 1 ms)",
    );
    for (const query of CASES) {
      const search = new URLSearchParams({ ...query.params, page: "0", size: "50" });
      let total = 0;
      const api = await time(async () => {
        const response = await fetch(`${base}?${search}`, { headers: { authorization: `Bearer ${secret}` } });
        if (!response.ok) throw new Error(`${query.name}: ${response.status} ${await response.text()}`);
        total = ((await response.json()) as { data: { totalElements: number } }).data.totalElements;
      });
      const filter = filterOf(query.params, user.id);
      const order = { page: 0, size: 50, sort: query.params.sort as "date" | undefined };
      const direct = await time(() => Promise.all([repository.list(filter, order), repository.facets(filter)]));
      const a = stats(api);
      const d = stats(direct);
      const ratio = a.p95 / (d.p95 + 1);
      p95s.set(query.name, a.p95);
      const met = ratio <= 1.2 && a.p95 <= 50;
      allMet &&= met;
      const f = (s: { p50: number; p95: number; p99: number }) =>
        `${s.p50.toFixed(1)}/${s.p95.toFixed(1)}/${s.p99.toFixed(1)}`;
      console.log(
        `  ${`${query.name} [${total}]`.padEnd(46)} ${f(d).padStart(20)} ${f(a).padStart(20)}   ${ratio.toFixed(2)} ${met ? "met" : "NOT met"}`,
      );
    }
    for (const query of CASES.filter((candidate) => candidate.narrows)) {
      const ratio = p95s.get(query.name)! / p95s.get(query.narrows!)!;
      const met = ratio <= 3;
      allMet &&= met;
      console.log(
        `  filtered / unfiltered p95 (${query.name}): ${ratio.toFixed(2)} (target <= 3: ${met ? "met" : "NOT met"})`,
      );
    }
    await app.close();
    return allMet;
  } finally {
    await db.close();
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(`search over ${storyCount} stories, ${samples} samples per query, page size 50, facets on`);
let met = true;
for (const dialect of dialects) met = (await benchDialect(dialect)) && met;
console.log(met ? "\nall targets met" : "\nsome targets NOT met");
