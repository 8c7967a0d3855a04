import type { Dialect, KyselyPlugin } from "kysely";

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
}
