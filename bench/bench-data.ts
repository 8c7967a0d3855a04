import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import type { DatabaseConfig } from "../server/src/config.js";
import { type Db, openDatabase } from "../server/src/db/database.js";
import { ApiTokensRepository } from "../server/src/modules/api-tokens/api-tokens.repository.js";
import { ApiTokensService } from "../server/src/modules/api-tokens/api-tokens.service.js";
import { UsersRepository } from "../server/src/modules/users/users.repository.js";
import { UsersService } from "../server/src/modules/users/users.service.js";
import { loadPostgres, loadSqlite } from "./search-data.js";

/**
 * A database for the API benchmarks: migrated, with the generated stories of
 * bench/search-data.ts (created by an administrator `bench`) and an editor
 * `editor` whose personal API token the benchmark signs in with. SQLite in
 * `dataDir`, or a PostgreSQL database of this process's own.
 */

const benchDatabaseName = () => `dams_bench_api_${process.pid}`;

/** One statement on the PostgreSQL server of `postgresUrl` (create and drop the benches' databases). */
export async function postgresAdmin(postgresUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * A bench's own database: SQLite in `dataDir`, or the PostgreSQL database `name` on the server of `postgresUrl`;
 * `cleanUp` drops it and removes the data dir, unless the data is kept for the next run.
 */
export function benchDatabase(options: {
  dialect: string;
  postgresUrl: string;
  dataDir: string;
  name: string;
  keep: boolean;
}): { database: DatabaseConfig; cleanUp: () => Promise<void> } {
  const { dialect, postgresUrl, dataDir, name, keep } = options;
  let database: DatabaseConfig;
  if (dialect === "sqlite") database = { kind: "sqlite", file: path.join(dataDir, "dams.sqlite") };
  else {
    const url = new URL(postgresUrl);
    url.pathname = `/${name}`;
    database = { kind: "postgres", url: url.toString() };
  }
  const cleanUp = async () => {
    if (keep) return;
    if (dialect === "postgres") await postgresAdmin(postgresUrl, `drop database if exists ${name} with (force)`);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { database, cleanUp };
}

export function postgresAnswers(postgresUrl: string): Promise<boolean> {
  return postgresAdmin(postgresUrl, "select 1").then(
    () => true,
    () => false,
  );
}

export async function dropBenchDatabase(postgresUrl: string): Promise<void> {
  await postgresAdmin(postgresUrl, `drop database if exists ${benchDatabaseName()} with (force)`).catch(() => {});
}

/**
 * The benches' two users in a migrated database: the administrator `bench` (who creates the generated stories)
 * and the editor `editor`, with the personal API token the benchmark signs in with.
 */
export async function benchUsers(db: Db): Promise<{ creatorId: string; token: string }> {
  const users = new UsersService(new UsersRepository(db));
  const creator = await users.createUser({ username: "bench", password: "bench-password-1", admin: true });
  const editor = await users.createUser({ username: "editor", password: "bench-password-1", roleId: "editor" });
  const token = (await new ApiTokensService(new ApiTokensRepository(db)).create(editor.id, { name: "bench" })).secret;
  return { creatorId: creator.id, token };
}

export async function prepareStories(
  dialect: string,
  dataDir: string,
  storyCount: number,
  postgresUrl: string,
): Promise<{ database: DatabaseConfig; token: string }> {
  let database: DatabaseConfig;
  if (dialect === "sqlite") database = { kind: "sqlite", file: path.join(dataDir, "dams.sqlite") };
  else {
    const url = new URL(postgresUrl);
    url.pathname = `/${benchDatabaseName()}`;
    await dropBenchDatabase(postgresUrl);
    await postgresAdmin(postgresUrl, `create database ${benchDatabaseName()}`);
    database = { kind: "postgres", url: url.toString() };
  }
  const db = openDatabase(database);
  let creatorId: string;
  let token: string;
  try {
    await db.migrateToLatest();
    ({ creatorId, token } = await benchUsers(db));
  } finally {
    await db.close();
  }
  if (database.kind === "sqlite") loadSqlite(database.file, storyCount, creatorId);
  else await loadPostgres(database.url, storyCount, creatorId);
  return { database, token };
}

/**
 * The search benchmarks' database (bench/search-data.ts's stories, created by an administrator `bench`):
 * migrated and loaded, or reused when `keep` names a directory where an earlier run left it loaded
 * (`<keep>/<dialect>-<storyCount>`, PostgreSQL database `name`, by default `dams_bench_<storyCount>`: a bench
 * that must not drop another's database names its own).
 */
export async function prepareSearchDatabase(options: {
  dialect: string;
  storyCount: number;
  keep: string | undefined;
  postgresUrl: string;
  name?: string;
}): Promise<{ database: DatabaseConfig; dataDir: string; cleanUp: () => Promise<void> }> {
  const { dialect, storyCount, keep, postgresUrl, name = `dams_bench_${storyCount}` } = options;
  const dataDir = keep
    ? path.join(keep, `${dialect}-${storyCount}`)
    : fs.mkdtempSync(path.join(os.tmpdir(), "dams-bench-search-"));
  fs.mkdirSync(dataDir, { recursive: true });
  const { database, cleanUp } = benchDatabase({ dialect, postgresUrl, dataDir, name, keep: Boolean(keep) });
  const marker = path.join(dataDir, "loaded");
  if (keep && fs.existsSync(marker)) return { database, dataDir, cleanUp };
  if (dialect === "postgres") {
    await postgresAdmin(postgresUrl, `drop database if exists ${name} with (force)`);
    await postgresAdmin(postgresUrl, `create database ${name}`);
  }
  const db = openDatabase(database);
  const users = new UsersService(new UsersRepository(db));
  let creatorId: string;
  try {
    await db.migrateToLatest();
    creatorId = (await users.createUser({ username: "bench", password: "bench-password-1", admin: true })).id;
  } finally {
    await db.close();
  }
  const started = performance.now();
  if (database.kind === "sqlite") loadSqlite(database.file, storyCount, creatorId);
  else await loadPostgres(database.url, storyCount, creatorId);
  console.log(
    `  generated and indexed ${storyCount} stories in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  fs.writeFileSync(marker, creatorId);
  return { database, dataDir, cleanUp };
}
