import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { BlobStore } from "../blobs/blob-store.js";
import { type JobHandler, jobSucceeded } from "../jobs/job-types.js";
import type { JobRecord } from "../jobs/jobs.repository.js";
import type { VideoEditRepository } from "./video-edit.repository.js";

/** How long a render no story took keeps its file. */
export const RENDER_LIFETIME_MS = 24 * 60 * 60 * 1000;
export const RENDER_EXPIRY_EVERY_MS = 60 * 60 * 1000;

export interface RenderExpiryDependencies {
  repository: VideoEditRepository;
  blobs: BlobStore;
  deleteBlobRow(key: string, transaction: Kysely<Database>): Promise<void>;
  job(jobId: string): Promise<JobRecord | undefined>;
  transaction<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T>;
  clock?: () => Date;
}

/**
 * Renders that no story took are removed a day after they were made: their
 * MP4 and poster (blobs and registry rows) and their row. A render whose job
 * is still queued or running is left for the next run.
 */
export function renderExpiryJob(deps: RenderExpiryDependencies): JobHandler<"video-edit.expire"> {
  return {
    name: "video-edit.expire",
    maxAttempts: 3,
    timeoutMs: 10 * 60 * 1000,
    async run(_payload, { signal }) {
      const before = new Date((deps.clock?.() ?? new Date()).getTime() - RENDER_LIFETIME_MS).toISOString();
      for (const row of await deps.repository.expiredRenders(before, 500)) {
        signal.throwIfAborted();
        const job = row.job_id ? await deps.job(row.job_id) : undefined;
        if (job && (job.state === "queued" || job.state === "running")) continue;
        const keys = [row.output_key, row.poster_key].filter((key): key is string => key !== null);
        await deps.transaction(async (trx) => {
          for (const key of keys) await deps.deleteBlobRow(key, trx);
          await deps.repository.deleteRender(row.id, trx);
        });
        // A file left behind by a failed delete has no row now: the blob sweeper removes it.
        await Promise.all(keys.map((key) => deps.blobs.delete(key).catch(() => undefined)));
      }
      return jobSucceeded;
    },
  };
}
