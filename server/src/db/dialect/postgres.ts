import { PostgresDialect, type PostgresPool, type PostgresPoolClient, type PostgresQueryResult, sql } from "kysely";
import pg from "pg";
import type { DialectAdapter } from "./dialect.js";
import { parsedRowLiteral } from "./row-literal.js";

const TIMESTAMPTZ_OID = 1184;
const INT8_OID = 20;

/** PostgreSQL's text form of a UTC timestamptz (DateStyle ISO, TimeZone UTC): `2026-11-27 10:11:12.345678+00`. */
const UTC_TIMESTAMP = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.(\d{1,6}))?\+00$/;

/**
 * A timestamptz as an ISO string, as `new Date(value).toISOString()` makes it
 * (milliseconds, the rest of the fraction cut off). A UTC value is rewritten
 * as text: V8's parser takes ~1.2 µs for PostgreSQL's form, which a search
 * window pays for 4 000 timestamps (docs/search.md). Anything else (another
 * zone offset, a year past 9999, BC) goes through Date.
 */
export function isoTimestamp(value: string): string {
  const match = UTC_TIMESTAMP.exec(value);
  if (!match) return new Date(value).toISOString();
  const millis = match[1] === undefined ? "000" : `${match[1]}00`.slice(0, 3);
  return `${value.slice(0, 10)}T${value.slice(11, 19)}.${millis}Z`;
}

/**
 * Timestamps come back as ISO strings (as they do from SQLite), and counts
 * (int8) as numbers: both dialects then hand repositories the same shapes.
 */
const typeParsers = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === TIMESTAMPTZ_OID) return isoTimestamp;
    if (oid === INT8_OID) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

export function createPostgresPool(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 10, types: typeParsers, connectionTimeoutMillis: 5000 });
  // An idle connection the server ends (a restart, an administrator's terminate)
  // is an 'error' event on the pool; unhandled, it would take the process down.
  // The pool drops that client and opens a new one on the next query.
  pool.on("error", (error) => process.emitWarning(`PostgreSQL closed an idle connection: ${error.message}`));
  return pool;
}

/** What pg's Result holds after a RowDescription (pg 8's lib/result.js, not in its types). */
interface PgResultInternals {
  fields: { name: string; format?: string }[];
  _parsers: ((value: string) => unknown)[];
  parseRow: (values: (string | null)[]) => unknown;
}

/** pg's Query whose rows are made by a compiled object literal (row-literal.ts; text format, as every query of dams is). */
class ObjectRowsQuery extends pg.Query {
  handleRowDescription(message: unknown): void {
    (pg.Query.prototype as unknown as { handleRowDescription(message: unknown): void }).handleRowDescription.call(
      this,
      message,
    );
    const result = (this as unknown as { _result: PgResultInternals })._result;
    if (result.fields.some((field) => field.format === "binary")) return;
    // pg's own parseRow stores each value into a copy of a template, key by key, through sites every
    // statement of the process shares: a search page's rows cost ~2.6 × the bare peer's (issue 21).
    const parse = parsedRowLiteral(
      result.fields.map((field) => field.name),
      result._parsers,
    );
    if (parse) result.parseRow = parse;
  }
}

/**
 * pg's pool as Kysely is given it: the same clients, whose queries run
 * through pg's callback form, `client.query(sql, parameters, callback)`.
 * Kysely calls the promise form, `client.query(sql, parameters)`, and with
 * it (pg 8.23) a result's rows outlived two of V8's young-generation
 * collections and were promoted into the API's old generation, where only a
 * full collection frees them: the log's export of 100 000 rows through
 * Kysely promoted 60 MiB, through the callback form 2.4 MiB (as pg's own
 * `pool.query`, which uses it) — and 1 000 000 rows peaked at ~385 MiB RSS
 * on PostgreSQL against ~240 on SQLite (docs/audit.md). No other change:
 * the same pool, clients, type parsers and errors.
 */
export function callbackQueryPool(pool: pg.Pool): PostgresPool {
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => ({
    query: (<R>(text: string | object, parameters?: ReadonlyArray<unknown>) => {
      // Kysely passes a cursor only when its dialect is given one (streaming); this one is not.
      if (typeof text !== "string") throw new Error("no cursor is configured for PostgreSQL queries");
      return new Promise<PostgresQueryResult<R>>((resolve, reject) => {
        client.query(
          new ObjectRowsQuery({ text, values: parameters as unknown[] }, (error, result) =>
            error ? reject(error) : resolve(result as unknown as PostgresQueryResult<R>),
          ),
        );
      });
    }) as PostgresPoolClient["query"],
    release: () => client.release(),
  });
  return {
    async connect() {
      const client = await pool.connect();
      // One wrapper per client, so Kysely (which keeps a connection per client) sees the same one each time.
      let connection = wrapped.get(client);
      if (!connection) {
        connection = wrap(client);
        wrapped.set(client, connection);
      }
      return connection;
    },
    end: () => pool.end(),
  };
}

export function postgresAdapter(url: string): DialectAdapter {
  return {
    name: "postgres",
    kyselyDialect: new PostgresDialect({ pool: callbackQueryPool(createPostgresPool(url)) }),
    plugins: [],
    columnTypes: { uuid: "uuid", timestamp: "timestamptz", json: "jsonb", boolean: "boolean" },
    readBoolean: (value) => value === true,
    readJson: <T>(value: unknown) => value as T,
    writeJson: (value) => JSON.stringify(value),
    skipLocked: (query) => query.forUpdate().skipLocked(),
    // Autovacuum analyses a table once a tenth of it changed (autovacuum_analyze_scale_factor).
    refreshStatistics: async () => {},
    jsonListHolds: (column, value) => {
      const ref = sql.ref(column);
      return sql<boolean>`exists (select 1 from jsonb_array_elements_text(case when jsonb_typeof(${ref}) = 'array' then ${ref} else '[]'::jsonb end) as item(value) where lower(item.value) = ${value})`;
    },
  };
}
