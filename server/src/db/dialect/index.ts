import type { DatabaseConfig } from "../../config.js";
import type { DialectAdapter } from "./dialect.js";
import { postgresAdapter } from "./postgres.js";
import { sqliteAdapter } from "./sqlite.js";

export type { DialectAdapter } from "./dialect.js";

export function createDialectAdapter(config: DatabaseConfig): DialectAdapter {
  switch (config.kind) {
    case "sqlite":
      return sqliteAdapter(config.file);
    case "postgres":
      return postgresAdapter(config.url);
  }
}
