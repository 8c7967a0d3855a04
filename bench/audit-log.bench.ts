import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { DatabaseConfig } from "../server/src/config.js";
import { openDatabase } from "../server/src/db/database.js";
import { ApiTokensRepository } from "../server/src/modules/api-tokens/api-tokens.repository.js";
import { ApiTokensService } from "../server/src/modules/api-tokens/api-tokens.service.js";
import { buildAudit } from "../server/src/modules/audit/audit.compose.js";
import { writeCursor } from "../server/src/modules/audit/audit.service.js";
import { UsersRepository } from "../server/src/modules/users/users.repository.js";
import { UsersService } from "../server/src/modules/users/users.service.js";
import { BUSY_USERS, seedPostgres, seedSqlite, userName } from "./audit-data.js";
import { benchDatabase, postgresAdmin } from "./bench-data.js";
import { startBuiltServer } from "./built-server.js";
import { LoadSampler, loadNow, processCpuSeconds } from "./machine.js";
import { readCsvSummary, readXlsxSummary, type SheetSummary } from "./sheet-reader.js";

/**
 * The operation log at scale (issue 18), through the API of the built server
 * (`dams serve --no-workers`, a process of its own; this process is only the
 * client), signed in with an administrator's personal API token:
 *
 * (a) the log page (GET /log/logDisplay, 50 rows, as the web page asks) over
 *     `AUDIT_BENCH_ROWS` generated rows (bench/audit-data.ts, default
 *     10 000 000): the first page, filtered pages (a user + an action + a
 *     date range; a story by id and by name; a hot route; failures) and deep
 *     pages by keyset cursor (half-way down the table). p50/p95 over
 *     `AUDIT_BENCH_SAMPLES` sequential requests each (default 60, after 10
 *     warm-up ones); target p95 ≤ 50 ms, the ratio to it printed.
 * (b) the export (POST /export/table_0, table `log`, the screen's seven
 *     columns and the id) of `AUDIT_BENCH_EXPORT_ROWS` rows (default
 *     1 000 000) chosen by the log's date filter, as .xlsx and as CSV: wall
 *     time to the last byte, and the server process's peak RSS during it
 *     (VmHWM from /proc, reset before each export through clear_refs; its
 *     anonymous part sampled beside); target ≤ 300 MiB. Each file is read
 *     back without exceljs (yauzl + saxes; the CSV by lines), its rows
 *     counted and its first and last rows checked against the database
 *     (a Chinese label among them).
 *
 * The machine's load is printed next to every figure.
 *
 *   npm run build -w server && npm run bench:audit-log -w bench
 *   AUDIT_BENCH_ROWS=200000 AUDIT_BENCH_EXPORT_ROWS=50000 AUDIT_BENCH_DIALECTS=sqlite npm run bench:audit-log -w bench
 *   AUDIT_BENCH_PARTS=page|export   AUDIT_BENCH_KEEP=<dir> (keep the SQLite file / PG database and reuse it)
 */
const rowCount = Number(process.env.AUDIT_BENCH_ROWS ?? 10_000_000);
const exportRows = Number(process.env.AUDIT_BENCH_EXPORT_ROWS ?? Math.min(1_000_000, Math.floor(rowCount / 2)));
const samples = Number(process.env.AUDIT_BENCH_SAMPLES ?? 60);
const dialects = (process.env.AUDIT_BENCH_DIALECTS ?? "sqlite,postgres").split(",");
const parts = (process.env.AUDIT_BENCH_PARTS ?? "page,export").split(",");
const keep = process.env.AUDIT_BENCH_KEEP;
const postgresUrl = process.env.AUDIT_BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const API = "/dams/api/v1";
const PAGE_LIMIT_MS = 50;
const RSS_LIMIT_MIB = 300;
/** The last generated row's time: the start of today (UTC), so the log ends "now". */
const END = keep ? Date.UTC(2026, 10, 1) : Math.floor(Date.now() / 86_400_000) * 86_400_000;
const DAY = 86_400_000;

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

interface Prepared {
  database: DatabaseConfig;
  dataDir: string;
  token: string;
  cleanUp(): Promise<void>;
}

/** A database migrated by the product, seeded (or reused under AUDIT_BENCH_KEEP), and an administrator's token. */
async function prepare(dialect: string): Promise<Prepared> {
  const dataDir = keep
    ? path.join(keep, `audit-${dialect}-${rowCount}`)
    : fs.mkdtempSync(path.join(os.tmpdir(), "dams-bench-audit-"));
  fs.mkdirSync(dataDir, { recursive: true });
  const name = `dams_bench_audit_${rowCount}${keep ? "" : `_${process.pid}`}`;
  const { database, cleanUp } = benchDatabase({ dialect, postgresUrl, dataDir, name, keep: Boolean(keep) });
  const marker = path.join(dataDir, "seeded");
  if (!keep || !fs.existsSync(marker)) {
    if (dialect === "postgres") {
      await postgresAdmin(postgresUrl, `drop database if exists ${name} with (force)`);
      await postgresAdmin(postgresUrl, `create database ${name}`);
    }
    const db = openDatabase(database);
    try {
      await db.migrateToLatest();
    } finally {
      await db.close();
    }
    const started = performance.now();
    const load = new LoadSampler();
    say(`  seeding ${rowCount} rows (${loadNow()})`);
    if (database.kind === "sqlite") seedSqlite(database.file, rowCount, END, say);
    else await seedPostgres(database.url, rowCount, END, say);
    say(`  seeded in ${((performance.now() - started) / 1000).toFixed(1)} s, ${load.stop()}`);
    fs.writeFileSync(marker, "");
  }
  // After the seed (its ids are 1…n): the administrator, whose token signs the requests in.
  const db = openDatabase(database);
  try {
    const users = new UsersService(new UsersRepository(db));
    const username = `bench-admin-${Date.now()}`;
    const admin = await users.createUser({ username, password: "bench-password-1", admin: true });
    const { secret } = await new ApiTokensService(new ApiTokensRepository(db)).create(admin.id, { name: "bench" });
    return { database, dataDir, token: secret, cleanUp };
  } finally {
    await db.close();
  }
}

/** The generated row `id` as the API shows it (its time for cursors, its label and actor for checks). */
async function rowById(database: DatabaseConfig, id: number) {
  const db = openDatabase(database);
  try {
    return await db.kysely
      .selectFrom("audit_log")
      .select(["id", "at", "actor_name", "action", "target_id", "target_label", "result"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
  } finally {
    await db.close();
  }
}

const iso = (ms: number) => new Date(ms).toISOString();
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

interface PageCase {
  name: string;
  params: Record<string, string>;
}

async function pageCases(database: DatabaseConfig): Promise<PageCase[]> {
  const middle = await rowById(database, Math.floor(rowCount / 2));
  const deep = writeCursor({ at: middle.at, id: Number(middle.id) });
  // A story that has rows: the first story row after a third of the table.
  const db = openDatabase(database);
  let story: { target_id: string | null; target_label: string | null };
  try {
    story = await db.kysely
      .selectFrom("audit_log")
      .select(["target_id", "target_label"])
      .where("id", ">", Math.floor(rowCount / 3))
      .where("target_type", "=", "story")
      .orderBy("id")
      .limit(1)
      .executeTakeFirstOrThrow();
  } finally {
    await db.close();
  }
  const busy = userName(7);
  const ordinary = userName(BUSY_USERS + 1234);
  const monthFrom = END - 400 * DAY;
  return [
    { name: "first page", params: {} },
    {
      name: `busy user + story.edit + 30 days (${busy})`,
      params: { actor: busy, action: "story.edit", from: iso(monthFrom), to: iso(monthFrom + 30 * DAY) },
    },
    {
      name: `user + story.delete + 90 days (${ordinary})`,
      params: { actor: ordinary, action: "story.delete", from: iso(monthFrom), to: iso(monthFrom + 90 * DAY) },
    },
    { name: "target = a story's id", params: { target: story.target_id! } },
    { name: `target = a story's name (${story.target_label})`, params: { target: story.target_label! } },
    {
      name: "target = a hot route (POST /workflow-story-favorite)",
      params: { target: "POST /workflow-story-favorite" },
    },
    { name: "result = failed", params: { result: "failed" } },
    { name: "deep page (cursor half-way down)", params: { cursor: deep } },
    {
      name: `deep page, busy user + story.edit (${busy})`,
      params: { actor: busy, action: "story.edit", cursor: deep },
    },
  ];
}

async function benchPages(base: string, token: string, database: DatabaseConfig, pid: number): Promise<boolean> {
  say(`\n  log page (50 rows), ${samples} requests per case after 10 warm-up ones, target p95 ≤ ${PAGE_LIMIT_MS} ms`);
  say(
    "  | case | rows | API p50 ms | API p95 ms | API p95 / 50 ms | server CPU ms / request | direct p50/p95 ms | load |",
  );
  say("  |---|---|---|---|---|---|---|---|");
  let met = true;
  // The same page on the service in this process (no HTTP, auth, serialisation): the database's share.
  const db = openDatabase(database);
  const { service } = buildAudit(db);
  for (const page of await pageCases(database)) {
    const query = new URLSearchParams({ ...page.params, size: "50" });
    let rows = 0;
    const get = async () => {
      const response = await fetch(`${base}${API}/log/logDisplay?${query}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      if (!response.ok) throw new Error(`${page.name}: ${response.status} ${await response.text()}`);
      const data = ((await response.json()) as { data: { content: unknown[]; next: string | null } }).data;
      rows = data.content.length;
    };
    for (let i = 0; i < 10; i++) await get();
    const load = new LoadSampler(500);
    const times: number[] = [];
    const cpu = processCpuSeconds(pid);
    for (let i = 0; i < samples; i++) {
      const started = performance.now();
      await get();
      times.push(performance.now() - started);
    }
    const cpuMs = ((processCpuSeconds(pid) - cpu) * 1000) / samples;
    const { cursor, ...filter } = page.params;
    const direct: number[] = [];
    for (let i = 0; i < samples + 3; i++) {
      const started = performance.now();
      await service.page(filter, cursor, 50);
      if (i >= 3) direct.push(performance.now() - started);
    }
    direct.sort((a, b) => a - b);
    const sorted = times.sort((a, b) => a - b);
    const p95 = percentile(sorted, 95);
    met &&= p95 <= PAGE_LIMIT_MS;
    say(
      `  | ${page.name} | ${rows} | ${percentile(sorted, 50).toFixed(1)} | ${p95.toFixed(1)} | ${(p95 / PAGE_LIMIT_MS).toFixed(2)}${p95 <= PAGE_LIMIT_MS ? "" : " **missed**"} | ${cpuMs.toFixed(1)} | ${percentile(direct, 50).toFixed(1)}/${percentile(direct, 95).toFixed(1)} | ${load.stop()} |`,
    );
  }
  await db.close();
  return met;
}

function status(pid: number): Record<string, number> {
  const fields: Record<string, number> = {};
  for (const line of fs.readFileSync(`/proc/${pid}/status`, "utf8").split("\n")) {
    const match = /^(Vm\w+|Rss\w+):\s+(\d+) kB/.exec(line);
    if (match) fields[match[1]!] = Number(match[2]) / 1024;
  }
  return fields;
}

const COLUMNS = [
  { key: "id", title: "编号" },
  { key: "at", title: "时间" },
  { key: "actorName", title: "用户" },
  { key: "ip", title: "IP" },
  { key: "action", title: "操作" },
  { key: "targetType", title: "对象类型" },
  { key: "targetLabel", title: "对象" },
  { key: "result", title: "结果" },
];

async function benchExport(
  base: string,
  token: string,
  database: DatabaseConfig,
  dataDir: string,
  server: ChildProcess,
): Promise<boolean> {
  // Rows are numbered in time order: [at(first), at(last + 1)) holds exactly ids first…last.
  const last = rowCount - Math.floor(rowCount / 10);
  const first = last - exportRows + 1;
  const [oldest, newest, after] = await Promise.all([
    rowById(database, first),
    rowById(database, last),
    rowById(database, last + 1),
  ]);
  const filter = { from: oldest.at, to: after.at };
  const days = (Date.parse(after.at) - Date.parse(oldest.at)) / DAY;
  say(
    `\n  export of ${exportRows} rows (${filter.from} – ${filter.to}, ${days.toFixed(0)} days), ${COLUMNS.length} columns`,
  );
  say(
    "  | format | rows read back | size MiB | wall s | server peak RSS MiB (VmHWM) | peak / 300 MiB | RSS before | peak anonymous MiB | load |",
  );
  say("  |---|---|---|---|---|---|---|---|---|");
  let met = true;
  for (const format of ["xlsx", "csv"] as const) {
    const pid = server.pid!;
    fs.writeFileSync(`/proc/${pid}/clear_refs`, "5"); // resets VmHWM to the current RSS
    const before = status(pid);
    let peakAnon = before.RssAnon ?? 0;
    const sampler = setInterval(() => {
      peakAnon = Math.max(peakAnon, status(pid).RssAnon ?? 0);
    }, 100);
    const load = new LoadSampler(1000);
    const file = path.join(dataDir, `export.${format}`);
    const started = performance.now();
    const response = await fetch(`${base}${API}/export/table_0`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ table: "log", format, filter, columns: COLUMNS, fileName: "操作日志" }),
    });
    if (!response.ok || !response.body)
      throw new Error(`export ${format}: ${response.status} ${await response.text()}`);
    await pipeline(Readable.fromWeb(response.body as never), fs.createWriteStream(file));
    const wall = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const peak = status(pid).VmHWM!;
    const loadText = load.stop();
    const wanted = (row: number) => row === 1 || row === exportRows;
    const read: SheetSummary =
      format === "xlsx" ? await readXlsxSummary(file, wanted) : await readCsvSummary(file, wanted);
    const firstRow = read.picked.get(1);
    const lastRow = read.picked.get(exportRows);
    const problems: string[] = [];
    if (read.rows !== exportRows) problems.push(`${read.rows} rows, not ${exportRows}`);
    if (firstRow?.[0] !== String(newest.id) || firstRow?.[6] !== newest.target_label)
      problems.push(`first row ${JSON.stringify(firstRow)} is not row ${newest.id} (${newest.target_label})`);
    if (lastRow?.[0] !== String(oldest.id) || lastRow?.[6] !== oldest.target_label)
      problems.push(`last row ${JSON.stringify(lastRow)} is not row ${oldest.id} (${oldest.target_label})`);
    const chinese = [firstRow, lastRow].flat().find((cell) => cell && /\p{Script=Han}/u.test(cell));
    if (!chinese) problems.push("no Chinese cell among the checked rows");
    const size = fs.statSync(file).size / 1024 / 1024;
    fs.rmSync(file);
    met &&= peak <= RSS_LIMIT_MIB && problems.length === 0;
    say(
      `  | ${format} | ${read.rows}${problems.length ? " **wrong**" : ""} | ${size.toFixed(1)} | ${wall.toFixed(1)} | ${peak.toFixed(0)} | ${(peak / RSS_LIMIT_MIB).toFixed(2)}${peak <= RSS_LIMIT_MIB ? "" : " **missed**"} | ${before.VmRSS!.toFixed(0)} | ${peakAnon.toFixed(0)} | ${loadText} |`,
    );
    for (const problem of problems) say(`    ${format}: ${problem}`);
    if (!problems.length) say(`    ${format}: first row ${firstRow!.join(" | ")}; a Chinese cell: ${chinese}`);
  }
  return met;
}

async function benchDialect(dialect: string, port: number): Promise<boolean> {
  say(`\n${dialect}, ${rowCount} rows:`);
  const prepared = await prepare(dialect);
  const built = await startBuiltServer({ dataDir: prepared.dataDir, database: prepared.database, port });
  const server = built.process;
  try {
    const base = built.base;
    let met = true;
    if (parts.includes("page")) met = (await benchPages(base, prepared.token, prepared.database, server.pid!)) && met;
    if (parts.includes("export"))
      met = (await benchExport(base, prepared.token, prepared.database, prepared.dataDir, server)) && met;
    return met;
  } finally {
    await built.stop();
    await prepared.cleanUp();
  }
}

say(`operation log: ${rowCount} rows, ${os.availableParallelism()} cores, ${loadNow()}`);
let met = true;
// A port per dialect, so a run of each at once (AUDIT_BENCH_DIALECTS) cannot reach the other's server.
for (const dialect of dialects) met = (await benchDialect(dialect, dialect === "sqlite" ? 18_760 : 18_761)) && met;
say(met ? "\nall targets met" : "\nsome targets NOT met");
