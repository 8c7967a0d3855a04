import type { BlobSweeper } from "../blobs/blob-sweeper.js";
import type { JobQueue } from "../jobs/job-queue.js";
import type { JobDefinition } from "../jobs/job-types.js";
import type { JobLogger } from "../jobs/job-worker.js";

export const MAINTENANCE_JOB = "maintenance";
/** How often each worker process asks for a maintenance run (one runs at a time across processes). */
export const MAINTENANCE_EVERY_MS = 6 * 60 * 60 * 1000;

export interface MaintenanceDependencies {
  sweeper: Pick<BlobSweeper, "sweep">;
  /** Deletes unfinished uploads past their lifetime; returns their ids. */
  removeAbandonedUploads: () => Promise<string[]>;
  queue: Pick<JobQueue, "prune">;
  logger: JobLogger;
}

/**
 * Housekeeping that keeps the data dir and the database from growing for
 * ever: orphaned blobs (a crash between storing bytes and their row) are
 * deleted after a day, abandoned tus uploads after their lifetime, finished
 * jobs after 14 days (dead ones, which an operator may still look at, after 90).
 */
export function maintenanceJob(deps: MaintenanceDependencies): JobDefinition<Record<string, never>> {
  return {
    name: MAINTENANCE_JOB,
    maxAttempts: 3,
    timeoutMs: 60 * 60 * 1000,
    async run(_payload, context) {
      const swept = await deps.sweeper.sweep({ graceMs: 24 * 60 * 60 * 1000 });
      await context.progress(50);
      const abandoned = await deps.removeAbandonedUploads();
      const pruned = await deps.queue.prune({ doneDays: 14, deadDays: 90 });
      deps.logger.info(
        {
          blobsScanned: swept.scanned,
          orphansDeleted: swept.deleted.length,
          blobsMissing: swept.missing,
          abandonedUploads: abandoned.length,
          jobsPruned: pruned,
        },
        "maintenance done",
      );
    },
  };
}
