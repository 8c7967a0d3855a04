import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/**
 * The job workers' heartbeats (modules/jobs): each `dams serve` or
 * `dams worker` process with a worker writes its row while it runs, so the
 * task monitor can show every worker, idle ones too, with its last heartbeat.
 */
export function jobWorkers(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema
        .createTable("job_workers")
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("host", "text", (column) => column.notNull())
        .addColumn("pid", "integer", (column) => column.notNull())
        .addColumn("concurrency", "integer", (column) => column.notNull())
        .addColumn("running", "integer", (column) => column.notNull())
        .addColumn("started_at", types.timestamp, (column) => column.notNull())
        .addColumn("last_seen_at", types.timestamp, (column) => column.notNull())
        .addColumn("stopped_at", types.timestamp)
        .execute();
      await db.schema.createIndex("job_workers_seen_idx").on("job_workers").column("last_seen_at").execute();
    },
    async down(db: AnyKysely): Promise<void> {
      await db.schema.dropTable("job_workers").execute();
    },
  };
}
