import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { UrlIngestConfig } from "../../config.js";
import type { Db } from "../../db/database.js";
import type { BlobStore } from "../blobs/blob-store.js";
import { BlobsRepository } from "../blobs/blobs.repository.js";
import type { FoldersService } from "../folders/folders.service.js";
import type { JobDefinition, JobEnqueuer } from "../jobs/job-types.js";
import type { LibrariesService } from "../libraries/libraries.service.js";
import type { StoriesService } from "../stories/stories.service.js";
import { AddressPolicy } from "./address-policy.js";
import { SafeFetcher } from "./safe-fetcher.js";
import { urlFetchJob } from "./url-fetch.job.js";
import { UrlIngestRepository } from "./url-ingest.repository.js";
import { urlIngestRoutes } from "./url-ingest.routes.js";
import { type UrlFetchPayload, UrlIngestService } from "./url-ingest.service.js";

export interface UrlIngestModule {
  routes: FastifyPluginAsyncZod;
  /** Register on the worker (app.ts). */
  job: JobDefinition<UrlFetchPayload>;
}

/** Builds the download centre once (called by app.ts). */
export function buildUrlIngest(deps: {
  config: UrlIngestConfig;
  db: Db;
  blobs: BlobStore;
  /** Enqueues the fetch and cancels it (the durable queue). */
  jobs: JobEnqueuer & { cancel(jobId: string): Promise<unknown> };
  stories: StoriesService;
  libraries: LibrariesService;
  folders: FoldersService;
}): UrlIngestModule {
  const repository = new UrlIngestRepository(deps.db);
  const fetcher = new SafeFetcher({
    policy: new AddressPolicy(deps.config.allowPrivate),
    maxBytes: deps.config.maxBytes,
    connectTimeoutMs: deps.config.connectTimeoutMs,
    idleTimeoutMs: deps.config.idleTimeoutMs,
  });
  const blobRows = new BlobsRepository(deps.db);
  const job = urlFetchJob({
    repository,
    fetcher,
    blobs: deps.blobs,
    insertBlobRow: (row, trx) => blobRows.insert(row, trx),
    stories: () => deps.stories,
    workDir: deps.config.workDir,
    // The spec sets no timeout on the client's call; the job still has one, long enough for large videos.
    timeoutMs: 6 * 3600_000,
    hls: { maxSegments: deps.config.hlsMaxSegments, timeoutMs: deps.config.hlsTimeoutMs },
  });
  const service = new UrlIngestService({
    repository,
    libraries: deps.libraries,
    folders: deps.folders,
    checkUrl: (url) => fetcher.checkUrl(url),
    jobs: deps.jobs,
    fetchJob: job,
    transaction: (work) => deps.db.kysely.transaction().execute(work),
  });
  return { routes: urlIngestRoutes(service), job };
}
