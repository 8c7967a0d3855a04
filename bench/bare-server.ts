import fs from "node:fs";
import http from "node:http";
import type Database from "better-sqlite3";
import type { DatabaseConfig } from "../server/src/config.js";
import { createPostgresPool } from "../server/src/db/dialect/postgres.js";
import { openSqlite } from "../server/src/db/dialect/sqlite.js";
import { securityHeaders } from "../server/src/http/security.js";

/**
 * The peer of the API benchmark: bare node:http with the same security
 * headers as dams, answering
 *   - GET /dams/api/v1/system/info with the JSON body dams gave, and
 *   - each database route of the benchmark (one story, searches) by running
 *     the statements dams ran for it (captured from dams' own query log,
 *     identity lookups left out) with the same driver and connection settings
 *     (better-sqlite3 through dams' openSqlite, pg through dams' pool), the
 *     rows serialised with JSON.stringify in dams' envelope.
 * A request is answered only with the expected Authorization header (a string
 * comparison: what a server that trusts its token costs, nothing more). So the
 * ratio measures the stack: routing, hooks, authentication, validation,
 * serialisation, logging, metrics.
 *
 *   tsx bare-server.ts <port> <plan.json>
 */
export interface PeerStatement {
  sql: string;
  parameters: unknown[];
}

export interface PeerPlan {
  systemInfoBody: string;
  database?: DatabaseConfig;
  authorization?: string;
  /** Exact request URLs and the statements to run for each. */
  routes: Record<string, PeerStatement[]>;
}

type Runner = (statements: PeerStatement[]) => Promise<unknown[]>;

function sqliteRunner(file: string): Runner {
  const database = openSqlite(file);
  const prepared = new Map<string, Database.Statement>();
  const bind = (parameters: unknown[]) =>
    parameters.map((value) => (typeof value === "boolean" ? (value ? 1 : 0) : value));
  return async (statements) =>
    statements.map(({ sql, parameters }) => {
      let statement = prepared.get(sql);
      if (!statement) {
        statement = database.prepare(sql);
        prepared.set(sql, statement);
      }
      return statement.reader ? statement.all(...bind(parameters)) : statement.run(...bind(parameters));
    });
}

function postgresRunner(url: string): Runner {
  const pool = createPostgresPool(url);
  return async (statements) => {
    const results: unknown[] = [];
    for (const { sql, parameters } of statements) results.push((await pool.query(sql, parameters)).rows);
    return results;
  };
}

const [port, planFile] = process.argv.slice(2) as [string, string];
const plan = JSON.parse(fs.readFileSync(planFile, "utf8")) as PeerPlan;
const run: Runner | undefined = plan.database
  ? plan.database.kind === "sqlite"
    ? sqliteRunner(plan.database.file)
    : postgresRunner(plan.database.url)
  : undefined;
const json = { ...securityHeaders, "content-type": "application/json; charset=utf-8" };

const server = http.createServer((request, response) => {
  if (request.method === "GET" && request.url === "/dams/api/v1/system/info") {
    response.writeHead(200, json);
    response.end(plan.systemInfoBody);
    return;
  }
  const statements = request.method === "GET" && request.url ? plan.routes[request.url] : undefined;
  if (!statements || !run) return void response.writeHead(404).end();
  if (request.headers.authorization !== plan.authorization) return void response.writeHead(401).end();
  run(statements).then(
    (results) => {
      response.writeHead(200, json);
      response.end(JSON.stringify({ code: 0, msg: "ok", data: results }));
    },
    (error: unknown) => {
      response.writeHead(500, json);
      response.end(JSON.stringify({ code: 500, msg: String(error) }));
    },
  );
});
server.listen(Number(port), "127.0.0.1", () => process.stdout.write("listening\n"));
// Stopped by the bench: exit, so that a profile (--cpu-prof) is written.
process.on("SIGTERM", () => process.exit(0));
