import { randomUUID } from "node:crypto";
import type { Db } from "../../db/database.js";
import type { TargetSweepReport } from "../blobs/blob-sweeper.js";

/** What one maintenance run found and did, as the storage monitor shows it. */
export interface MaintenanceReport {
  /** Blobs under originals/ the sweeper looked at, in every storage target. */
  blobsScanned: number;
  /** Orphans (no registry row, older than a day) deleted. */
  orphansDeleted: number;
  /** Orphans kept because they are younger than the grace period. */
  orphansYoung: number;
  /** Registry rows whose blob is missing from the store (never deleted: a person decides). */
  blobsMissing: number;
  /** The first of them, for the monitor to name. */
  missingKeys: string[];
  /** The sweeper's figures per storage target, the built-in storage first (absent in reports written before targets were swept). */
  targets?: TargetSweepReport[];
  abandonedUploads: number;
  processingRepaired: number;
  jobsPruned: number;
  auditRowsPruned: number;
  usageCountsPruned: number;
  diskTrashPurged: number;
  diskOrphans: number;
  outgoingCopiesDeleted: number;
  outgoingCopiesBytes: number;
  statisticsMs: number;
}

export interface MaintenanceRun {
  id: string;
  startedAt: string;
  finishedAt: string;
  report: MaintenanceReport;
}

/** Runs kept: older ones go when a new one is recorded. */
export const RUNS_KEPT = 30;
/** Missing keys named in a report. */
export const MISSING_KEYS_KEPT = 20;

/** The maintenance job's reports (`maintenance_runs`). */
export class MaintenanceRuns {
  constructor(private readonly db: Db) {}

  async record(startedAt: string, finishedAt: string, report: MaintenanceReport): Promise<void> {
    const kysely = this.db.kysely;
    await kysely
      .insertInto("maintenance_runs")
      .values({
        id: randomUUID(),
        started_at: startedAt,
        finished_at: finishedAt,
        report: this.db.adapter.writeJson(report),
      })
      .execute();
    const old = await kysely
      .selectFrom("maintenance_runs")
      .select("id")
      .orderBy("finished_at", "desc")
      .offset(RUNS_KEPT)
      .limit(1000)
      .execute();
    if (old.length > 0)
      await kysely
        .deleteFrom("maintenance_runs")
        .where(
          "id",
          "in",
          old.map((row) => row.id),
        )
        .execute();
  }

  /** The newest run, or null before the first. */
  async latest(): Promise<MaintenanceRun | null> {
    const row = await this.db.kysely
      .selectFrom("maintenance_runs")
      .selectAll()
      .orderBy("finished_at", "desc")
      .limit(1)
      .executeTakeFirst();
    if (!row) return null;
    return {
      id: row.id,
      startedAt: String(row.started_at),
      finishedAt: String(row.finished_at),
      report: this.db.adapter.readJson<MaintenanceReport>(row.report),
    };
  }
}
