import type { BlobSweeper } from "../blobs/blob-sweeper.js";
import type { DiskService } from "../disk/disk.service.js";
import type { JobQueue } from "../jobs/job-queue.js";
import { type JobHandler, type JobRegistrar, jobSucceeded } from "../jobs/job-types.js";
import type { JobLogger } from "../jobs/job-worker.js";
import { type MaintenanceReport, type MaintenanceRuns, MISSING_KEYS_KEPT } from "./maintenance-runs.js";

/** How often each worker process asks for a maintenance run (one runs at a time across processes). */
export const MAINTENANCE_EVERY_MS = 6 * 60 * 60 * 1000;

export interface MaintenanceDependencies {
  sweeper: Pick<BlobSweeper, "sweep">;
  /** Deletes unfinished uploads past their lifetime; returns their ids. */
  removeAbandonedUploads: () => Promise<string[]>;
  queue: Pick<JobQueue, "prune">;
  /** Stories left saying "processing" by a job that is dead or gone: marked failed; returns their ids. */
  repairProcessing?: () => Promise<string[]>;
  /** The network disk: its trash purged after 30 days, bytes no file holds swept. */
  disk?: Pick<DiskService, "purgeExpiredTrash" | "sweepOrphans">;
  /** Brings the query planner's statistics up to date (Db.refreshStatistics). */
  refreshStatistics: () => Promise<void>;
  /** Deletes the operation log's rows older than the administrator's retention; returns how many. */
  pruneAuditLog: () => Promise<number>;
  /** Copies made for downloads (the outgoing module): past their age, of deleted stories, over the size bound. */
  sweepOutgoing?: () => Promise<{ scanned: number; deleted: number; bytes: number }>;
  /** Deletes story views and search-miss counts older than the usage statistics' longest period; returns how many. */
  pruneUsageCounts?: () => Promise<number>;
  logger: JobLogger;
  /** Where each run's report is kept for the storage monitor. */
  runs?: Pick<MaintenanceRuns, "record">;
}

/**
 * Housekeeping that keeps the data dir and the database from growing for
 * ever: orphaned blobs (a crash between storing bytes and their row) are
 * deleted after a day in every storage target, abandoned tus uploads after their lifetime, finished
 * jobs after 14 days (dead ones, which an operator may still look at, after 90),
 * operation log rows past the retention an administrator set (docs/audit.md);
 * copies made for downloads past a week or over 10 GiB in all (docs/media.md);
 * usage counts (story views, searches that found nothing) older than 400 days;
 * the network disk's trash after 30 days, and disk bytes no file holds;
 * and the query planner's statistics kept current as the tables grow (SQLite
 * has no daemon for it; see Db.refreshStatistics).
 */
export function maintenanceJob(deps: MaintenanceDependencies): JobHandler<"maintenance"> {
  return {
    name: "maintenance",
    maxAttempts: 3,
    timeoutMs: 60 * 60 * 1000,
    async run(_payload, context) {
      const startedAt = new Date().toISOString();
      const swept = await deps.sweeper.sweep({ graceMs: 24 * 60 * 60 * 1000 });
      await context.progress(50);
      const abandoned = await deps.removeAbandonedUploads();
      const processingRepaired = (await deps.repairProcessing?.())?.length ?? 0;
      const pruned = await deps.queue.prune({ doneDays: 14, deadDays: 90 });
      const auditPruned = await deps.pruneAuditLog();
      const usageCountsPruned = (await deps.pruneUsageCounts?.()) ?? 0;
      const diskTrashPurged = (await deps.disk?.purgeExpiredTrash()) ?? 0;
      const diskOrphans = (await deps.disk?.sweepOrphans())?.length ?? 0;
      const outgoing = await deps.sweepOutgoing?.();
      const started = Date.now();
      await deps.refreshStatistics();
      const report: MaintenanceReport = {
        blobsScanned: swept.scanned,
        orphansDeleted: swept.deleted.length,
        orphansYoung: swept.young.length,
        blobsMissing: swept.missing.length,
        missingKeys: swept.missing.slice(0, MISSING_KEYS_KEPT),
        targets: swept.targets,
        abandonedUploads: abandoned.length,
        processingRepaired,
        jobsPruned: pruned,
        auditRowsPruned: auditPruned,
        usageCountsPruned,
        diskTrashPurged,
        diskOrphans,
        outgoingCopiesDeleted: outgoing?.deleted ?? 0,
        outgoingCopiesBytes: outgoing?.bytes ?? 0,
        statisticsMs: Date.now() - started,
      };
      await deps.runs?.record(startedAt, new Date().toISOString(), report);
      deps.logger.info({ ...report, missingKeys: undefined, blobsMissing: swept.missing }, "maintenance done");
      return jobSucceeded;
    },
  };
}

/** Registers the housekeeping to run every MAINTENANCE_EVERY_MS (called once by app.ts). */
export function registerMaintenance(jobs: JobRegistrar, deps: MaintenanceDependencies): void {
  jobs.every(maintenanceJob(deps), MAINTENANCE_EVERY_MS, {});
}
