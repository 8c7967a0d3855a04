import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { UrlIngestConfig } from "../../config.js";
import type { Db } from "../../db/database.js";
import type { MediaTools } from "../../media/index.js";
import type { FoldersService } from "../folders/folders.service.js";
import type { IngestService } from "../ingest/ingest.service.js";
import type { JobEnqueuer, JobRegistrar } from "../jobs/job-types.js";
import type { LibrariesService } from "../libraries/libraries.service.js";
import { AddressPolicy } from "./address-policy.js";
import { SafeFetcher } from "./safe-fetcher.js";
import { urlFetchJob } from "./url-fetch.job.js";
import { UrlIngestRepository } from "./url-ingest.repository.js";
import { urlIngestRoutes } from "./url-ingest.routes.js";
import { UrlIngestService } from "./url-ingest.service.js";

/** Builds the download centre once and registers its job, "url-ingest.fetch" (called by app.ts). */
export function buildUrlIngest(deps: {
  config: UrlIngestConfig;
  db: Db;
  media: MediaTools;
  /** Enqueues the fetch and cancels it; the fetch's handler is registered here. */
  jobs: JobEnqueuer & JobRegistrar & { cancel(jobId: string): Promise<unknown> };
  /** A fetched file becomes a story through the ingest command. */
  ingest: Pick<IngestService, "ingestFile">;
  libraries: LibrariesService;
  folders: FoldersService;
}): FastifyPluginAsyncZod {
  const repository = new UrlIngestRepository(deps.db);
  const fetcher = new SafeFetcher({
    policy: new AddressPolicy(deps.config.allowPrivate),
    maxBytes: deps.config.maxBytes,
    connectTimeoutMs: deps.config.connectTimeoutMs,
    idleTimeoutMs: deps.config.idleTimeoutMs,
  });
  const job = urlFetchJob({
    repository,
    fetcher,
    media: deps.media,
    ingest: deps.ingest,
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
    transaction: (work) => deps.db.kysely.transaction().execute(work),
  });
  deps.jobs.register(job);
  return urlIngestRoutes(service);
}
