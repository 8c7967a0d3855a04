import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/**
 * The maintenance job's reports (issue 18: "the orphan sweeper's last
 * report" on the storage monitor): one row per run with what it found and
 * did — blobs scanned, orphans deleted or kept young, registry rows whose
 * blob is missing, uploads and trash removed, rows pruned. The newest 30
 * runs are kept.
 */
export function maintenanceRuns(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema
        .createTable("maintenance_runs")
        .addColumn("id", types.uuid, (column) => column.primaryKey())
        .addColumn("started_at", types.timestamp, (column) => column.notNull())
        .addColumn("finished_at", types.timestamp, (column) => column.notNull())
        .addColumn("report", types.json, (column) => column.notNull())
        .execute();
      await db.schema
        .createIndex("maintenance_runs_finished_idx")
        .on("maintenance_runs")
        .column("finished_at")
        .execute();
    },
    async down(db: AnyKysely): Promise<void> {
      await db.schema.dropTable("maintenance_runs").execute();
    },
  };
}
