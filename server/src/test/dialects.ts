import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { type LogEvent, sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, inject } from "vitest";
import { type AppDependencies, buildApp } from "../app.js";
import { type Config, type DatabaseConfig, loadConfig } from "../config.js";
import { type Db, openDatabase } from "../db/database.js";

export type DialectName = "sqlite" | "postgres";

const wanted = (process.env.DAMS_TEST_DIALECTS ?? "sqlite,postgres").split(",") as DialectName[];

/** A database of its own for one test file: a SQLite file or a fresh PostgreSQL database. */
export interface TestDatabase {
  dialect: DialectName;
  config: DatabaseConfig;
  dataDir: string;
  drop(): Promise<void>;
}

async function createTestDatabase(dialect: DialectName): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dams-test-"));
  if (dialect === "sqlite") {
    return {
      dialect,
      dataDir,
      config: { kind: "sqlite", file: path.join(dataDir, "dams.sqlite") },
      drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const adminUrl = inject("postgresUrl")!;
  const name = `dams_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    dialect,
    dataDir,
    config: { kind: "postgres", url: url.toString() },
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      // pg's pool.end() resolves before its sockets close; forcing the drop while one is still
      // open makes that client emit "terminating connection" as an uncaught error. Let them go first.
      for (let wait = 0; wait < 100; wait++) {
        const open = await client.query("select count(*)::int as n from pg_stat_activity where datname = $1", [name]);
        if (open.rows[0].n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function testConfig(database: TestDatabase, overrides: Record<string, string> = {}): Config {
  return {
    ...loadConfig({
      DAMS_DATA_DIR: database.dataDir,
      DAMS_WEB_DIR: path.join(database.dataDir, "web"),
      DAMS_LOG_LEVEL: "silent",
      ...overrides,
    }),
    database: database.config,
  };
}

/**
 * Runs a suite once per dialect, the way Kysely's own tests do. Filter with
 * DAMS_TEST_DIALECTS=sqlite or =postgres.
 */
export function describeEachDialect(name: string, suite: (dialect: DialectName) => void): void {
  for (const dialect of wanted) {
    const available = dialect === "sqlite" || inject("postgresUrl") !== null;
    describe.skipIf(!available)(`${name} [${dialect}]`, () => suite(dialect));
  }
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: Config;
  database: TestDatabase;
}

/**
 * A migrated database and a built app for the enclosing suite; `prepare`
 * may register extra routes before the app is ready.
 */
export function useTestApp(
  dialect: DialectName,
  options: {
    env?: Record<string, string>;
    migrate?: boolean;
    prepare?: (app: FastifyInstance) => void;
    /** Seams the app takes from outside (blob store, job queue), built once the database is migrated. */
    seams?: (db: Db, database: TestDatabase) => Promise<Partial<AppDependencies>> | Partial<AppDependencies>;
    /** Sees every statement of the app's database (openDatabase's log). */
    log?: (event: LogEvent) => void;
  } = {},
): () => TestApp {
  let current: TestApp | undefined;
  beforeAll(async () => {
    const database = await createTestDatabase(dialect);
    const config = testConfig(database, options.env);
    const db = openDatabase(config.database, { log: options.log });
    if (options.migrate !== false) await db.migrateToLatest();
    const seams = options.seams ? await options.seams(db, database) : {};
    const app = await buildApp({ ...seams, config, db, logger: false });
    options.prepare?.(app);
    await app.ready();
    current = { app, db, config, database };
  });
  afterAll(async () => {
    if (!current) return;
    await current.app.close();
    await current.db.close();
    await current.database.drop();
  });
  return () => {
    if (!current) throw new Error("the test app is built in beforeAll");
    return current;
  };
}

/** A database without an app, for repository and service tests. */
export function useTestDb(dialect: DialectName): () => Db {
  let db: Db | undefined;
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = openDatabase(database.config);
    await db.migrateToLatest();
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });
  return () => db!;
}

/**
 * A migrated database and a second, independent connection to it: what
 * another process (another API node) would see. On PostgreSQL each has its
 * own pool and its own LISTEN connection, so notices travel between them as
 * between processes; on SQLite notices stay in each connection's process.
 */
export function useTestDbTwice(dialect: DialectName): () => { db: Db; other: Db } {
  let pair: { db: Db; other: Db } | undefined;
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    const db = openDatabase(database.config);
    await db.migrateToLatest();
    pair = { db, other: openDatabase(database.config) };
  });
  afterAll(async () => {
    await pair?.other.close();
    await pair?.db.close();
    await database?.drop();
  });
  return () => pair!;
}

/** The URL a child process opens to reach the test's database. */
export async function databaseUrl(db: Db): Promise<string> {
  if (db.adapter.name === "postgres") {
    const row = await sql<{ name: string }>`select current_database() as name`.execute(db.kysely);
    const url = new URL(inject("postgresUrl")!);
    url.pathname = `/${row.rows[0]!.name}`;
    return url.toString();
  }
  const row = await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(db.kysely);
  return `sqlite:${row.rows[0]!.file}`;
}
