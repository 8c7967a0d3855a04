import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import {
  type KyselyPlugin,
  OperationNodeTransformer,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  PrimitiveValueListNode,
  type QueryResult,
  type RootOperationNode,
  SqliteDialect,
  sql,
  type UnknownRow,
  ValueNode,
} from "kysely";
import type { DialectAdapter } from "./dialect.js";

/** better-sqlite3 refuses to bind booleans; store them as 0/1. */
class BooleanToIntegerTransformer extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    const transformed = super.transformValue(node);
    return typeof transformed.value === "boolean" ? ValueNode.create(transformed.value ? 1 : 0) : transformed;
  }

  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    return PrimitiveValueListNode.create(
      node.values.map((value) => (typeof value === "boolean" ? (value ? 1 : 0) : value)),
    );
  }
}

class SqliteBooleanPlugin implements KyselyPlugin {
  readonly #transformer = new BooleanToIntegerTransformer();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
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
  const statements = new Map<string, Database.Statement>();
  return {
    prepare(sql: string): Database.Statement {
      const cached = statements.get(sql);
      if (cached && !cached.busy) {
        statements.delete(sql);
        statements.set(sql, cached);
        return cached;
      }
      const statement = database.prepare(sql);
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
    plugins: [new SqliteBooleanPlugin()],
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
