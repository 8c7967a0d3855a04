import { Kysely, type LogEvent, Migrator, sql } from "kysely";
import type { DatabaseConfig } from "../config.js";
import { createDialectAdapter, type DialectAdapter } from "./dialect/index.js";
import { DamsMigrationProvider } from "./migrations/index.js";
import { type Notifications, openNotifications } from "./notifications.js";
import type { Database } from "./schema.js";

export interface Db {
  kysely: Kysely<Database>;
  adapter: DialectAdapter;
  /** Notices to every process on this database (PostgreSQL LISTEN/NOTIFY; this process only on SQLite). */
  notifications: Notifications;
  /** Applies pending migrations, then refreshes the planner's statistics; returns the names applied. */
  migrateToLatest(): Promise<string[]>;
  /** The planner's statistics brought up to date where stale (SQLite: `PRAGMA optimize`); the maintenance job runs it. */
  refreshStatistics(): Promise<void>;
  pendingMigrations(): Promise<string[]>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class MigrationError extends Error {}

/** Opens the database; `log` sees every statement (the statement-counting script and bench use it). */
export function openDatabase(config: DatabaseConfig, { log }: { log?: (event: LogEvent) => void } = {}): Db {
  const adapter = createDialectAdapter(config);
  const kysely = new Kysely<Database>({ dialect: adapter.kyselyDialect, plugins: adapter.plugins, log });
  const migrator = new Migrator({ db: kysely, provider: new DamsMigrationProvider(adapter) });
  const notifications = openNotifications(config, () => kysely);

  return {
    kysely,
    adapter,
    notifications,
    async migrateToLatest() {
      const { error, results } = await migrator.migrateToLatest();
      if (error) {
        const failed = results?.find((result) => result.status === "Error")?.migrationName ?? "unknown";
        throw new MigrationError(`migration ${failed} failed: ${error instanceof Error ? error.message : error}`);
      }
      // New indexes and changed tables: statistics before the first query plans them.
      await adapter.refreshStatistics(kysely);
      return (results ?? []).map((result) => result.migrationName);
    },
    async refreshStatistics() {
      await adapter.refreshStatistics(kysely);
    },
    async pendingMigrations() {
      const migrations = await migrator.getMigrations();
      return migrations.filter((migration) => migration.executedAt === undefined).map((migration) => migration.name);
    },
    async ping() {
      await sql`select 1`.execute(kysely);
    },
    async close() {
      await notifications.close();
      await kysely.destroy();
    },
  };
}
