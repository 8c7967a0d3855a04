import { Kysely, Migrator, sql } from "kysely";
import type { DatabaseConfig } from "../config.js";
import { createDialectAdapter, type DialectAdapter } from "./dialect/index.js";
import { DamsMigrationProvider } from "./migrations/index.js";
import type { Database } from "./schema.js";

export interface Db {
  kysely: Kysely<Database>;
  adapter: DialectAdapter;
  migrateToLatest(): Promise<string[]>;
  pendingMigrations(): Promise<string[]>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class MigrationError extends Error {}

export function openDatabase(config: DatabaseConfig): Db {
  const adapter = createDialectAdapter(config);
  const kysely = new Kysely<Database>({ dialect: adapter.kyselyDialect, plugins: adapter.plugins });
  const migrator = new Migrator({ db: kysely, provider: new DamsMigrationProvider(adapter) });

  return {
    kysely,
    adapter,
    async migrateToLatest() {
      const { error, results } = await migrator.migrateToLatest();
      if (error) {
        const failed = results?.find((result) => result.status === "Error")?.migrationName ?? "unknown";
        throw new MigrationError(`migration ${failed} failed: ${error instanceof Error ? error.message : error}`);
      }
      return (results ?? []).map((result) => result.migrationName);
    },
    async pendingMigrations() {
      const migrations = await migrator.getMigrations();
      return migrations.filter((migration) => migration.executedAt === undefined).map((migration) => migration.name);
    },
    async ping() {
      await sql`select 1`.execute(kysely);
    },
    async close() {
      await kysely.destroy();
    },
  };
}
