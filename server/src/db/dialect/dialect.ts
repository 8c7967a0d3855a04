import type { Dialect, Kysely, KyselyPlugin, RawBuilder, SelectQueryBuilder } from "kysely";

/**
 * Everything that differs between SQLite and PostgreSQL lives behind this
 * interface. Repositories and migrations ask it for column types and value
 * conversions instead of testing which database they talk to.
 */
export interface DialectAdapter {
  readonly name: "sqlite" | "postgres";
  readonly kyselyDialect: Dialect;
  readonly plugins: KyselyPlugin[];
  /** Column types used by migrations. */
  readonly columnTypes: {
    uuid: "text" | "uuid";
    timestamp: "text" | "timestamptz";
    json: "text" | "jsonb";
    boolean: "integer" | "boolean";
  };
  /** Reads a boolean column (SQLite stores 0/1). */
  readBoolean(value: unknown): boolean;
  /** Reads a JSON column (SQLite stores text). */
  readJson<T>(value: unknown): T;
  /** Writes a JSON column. */
  writeJson(value: unknown): string;
  /**
   * Makes a select that picks rows to claim lock them and skip rows another
   * transaction holds (`FOR UPDATE SKIP LOCKED` on PostgreSQL). SQLite has one
   * writer at a time, so a claiming UPDATE is already exclusive there.
   */
  skipLocked<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O>;
  /**
   * Brings the query planner's statistics up to date where they have gone
   * stale: SQLite's `PRAGMA optimize` (which analyses only tables that grew or
   * shrank a lot, within its own time limit); nothing on PostgreSQL, whose
   * autovacuum daemon analyses changed tables by itself (docs/operations.md).
   */
  refreshStatistics<DB>(db: Kysely<DB>): Promise<void>;
  /**
   * Whether the JSON list in `column` (a qualified column reference, e.g.
   * `stories.keywords`) holds `lowerCaseValue`, its items compared in lower
   * case; a value that is not a list holds nothing.
   */
  jsonListHolds(column: string, lowerCaseValue: string): RawBuilder<boolean>;
}
