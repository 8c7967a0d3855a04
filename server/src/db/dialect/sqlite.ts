import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { SqliteDialect, sql } from "kysely";
import type { DialectAdapter } from "./dialect.js";
import { rowLiteral } from "./row-literal.js";

/** Parameters as better-sqlite3 binds them: it refuses booleans, which are stored as 1 and 0. */
function bindable(parameters: readonly unknown[] | undefined): unknown[] {
  if (parameters === undefined) return [];
  for (let index = 0; index < parameters.length; index++) {
    if (typeof parameters[index] === "boolean")
      return parameters.map((value) => (typeof value === "boolean" ? (value ? 1 : 0) : value));
  }
  return parameters as unknown[];
}

/**
 * A prepared statement binding booleans as 1 and 0, whose rows are made in
 * JavaScript. Binding: this was a Kysely plugin rewriting every query's tree
 * before it was compiled (a copy of every node: ~3 % of a search's CPU, issue
 * 21); here it is one look at the parameters. A boolean written into the SQL
 * itself (`sql.lit(true)`) is SQLite's TRUE, 1. Rows: a reader runs in
 * better-sqlite3's raw mode (arrays) and each row's object is made by the
 * literal of its columns (row-literal.ts): better-sqlite3 sets an object's
 * properties one by one from C++, ~30 % slower for a story's 35 columns
 * (11.5 against 8.1 µs a row, in process), and the story then reads them from
 * a slower object. A `__proto__` column keeps better-sqlite3's objects.
 */
class BooleanBinding {
  /** The rows' maker, made on the first read (null: better-sqlite3's own objects). */
  #makeRow: ((values: readonly unknown[]) => Record<string, unknown>) | null | undefined;
  /** Columns the maker was made for. */
  #width = 0;

  constructor(readonly statement: Database.Statement) {}

  get reader(): boolean {
    return this.statement.reader;
  }

  get busy(): boolean {
    return this.statement.busy;
  }

  #columns(): string[] {
    return this.statement.columns().map((column) => column.name);
  }

  #maker(): ((values: readonly unknown[]) => Record<string, unknown>) | null {
    if (this.#makeRow === undefined) {
      const names = this.#columns();
      this.#makeRow = rowLiteral(names) ?? null;
      this.#width = names.length;
      if (this.#makeRow) this.statement.raw(true);
    }
    return this.#makeRow;
  }

  all(parameters?: readonly unknown[]): unknown[] {
    let make = this.#maker();
    const rows = this.statement.all(bindable(parameters));
    if (!make) return rows;
    if (rows.length > 0 && (rows[0] as unknown[]).length !== this.#width) {
      // SQLite prepared the statement again for a changed schema (a `select *` after a column was added):
      // its columns are current now that it ran.
      const names = this.#columns();
      make = rowLiteral(names) ?? ((values) => Object.fromEntries(names.map((name, index) => [name, values[index]])));
      this.#makeRow = make;
      this.#width = names.length;
    }
    for (let index = 0; index < rows.length; index++) rows[index] = make(rows[index] as unknown[]);
    return rows;
  }

  run(parameters?: readonly unknown[]): Database.RunResult {
    return this.statement.run(bindable(parameters));
  }

  *iterate(parameters?: readonly unknown[]): IterableIterator<unknown> {
    const make = this.#maker();
    for (const row of this.statement.iterate(bindable(parameters))) yield make ? make(row as unknown[]) : row;
  }
}

export function openSqlite(file: string): Database.Database {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  const database = new Database(file);
  database.pragma("journal_mode = WAL");
  database.pragma("synchronous = NORMAL");
  database.pragma("foreign_keys = ON");
  database.pragma("busy_timeout = 5000");
  return database;
}

/** A statement that changes the schema (migrations). */
const SCHEMA_CHANGE = /^\s*(create|alter|drop)\b/i;

/** Statements kept prepared per connection (by SQL text). */
const STATEMENT_CACHE = 500;

/**
 * The connection as Kysely's driver sees it, with its statements kept
 * prepared: preparing is a good part of a small query's cost (an FTS5 query's
 * most of all), and a request runs the same few statements every time. A
 * statement still being iterated (a stream) is not handed out again; the
 * least recently used one is dropped when the cache is full.
 */
export function withStatementCache(database: Database.Database, size = STATEMENT_CACHE) {
  const statements = new Map<string, BooleanBinding>();
  return {
    prepare(sql: string): BooleanBinding {
      // A schema change renames or moves columns under statements prepared before it, whose rows' makers
      // (BooleanBinding) know the old ones: they are prepared again after it.
      if (SCHEMA_CHANGE.test(sql)) statements.clear();
      const cached = statements.get(sql);
      if (cached && !cached.busy) {
        statements.delete(sql);
        statements.set(sql, cached);
        return cached;
      }
      const statement = new BooleanBinding(database.prepare(sql));
      statements.set(sql, statement);
      if (statements.size > size) statements.delete(statements.keys().next().value!);
      return statement;
    },
    close(): void {
      statements.clear();
      database.close();
    },
  };
}

export function sqliteAdapter(file: string): DialectAdapter {
  return {
    name: "sqlite",
    kyselyDialect: new SqliteDialect({ database: withStatementCache(openSqlite(file)) }),
    plugins: [],
    columnTypes: { uuid: "text", timestamp: "text", json: "text", boolean: "integer" },
    readBoolean: (value) => value === 1 || value === true,
    readJson: <T>(value: unknown) => (typeof value === "string" ? (JSON.parse(value) as T) : (value as T)),
    writeJson: (value) => JSON.stringify(value),
    skipLocked: (query) => query,
    async refreshStatistics(db) {
      // 0x10002: check every table (not only those this connection used), analyse those that need it.
      await sql`pragma optimize=0x10002`.execute(db);
    },
    jsonListHolds: (column, value) => {
      const ref = sql.ref(column);
      return sql<boolean>`exists (select 1 from json_each(case when json_valid(${ref}) and json_type(${ref}) = 'array' then ${ref} else '[]' end) as item where lower(item.value) = ${value})`;
    },
  };
}
