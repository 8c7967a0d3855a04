import path from "node:path";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Kysely } from "kysely";
import type { MediaConfig } from "../../config.js";
import type { Db } from "../../db/database.js";
import type { Database } from "../../db/schema.js";
import type { VideoRenderTools } from "../../media/index.js";
import type { BlobStore } from "../blobs/blob-store.js";
import type { BlobsService } from "../blobs/blobs.service.js";
import type { JobEnqueuer, JobRegistrar } from "../jobs/job-types.js";
import type { JobRecord } from "../jobs/jobs.repository.js";
import type { LibrariesService } from "../libraries/libraries.service.js";
import type { RelationsService } from "../relations/relations.service.js";
import type { StoriesModule } from "../stories/stories.compose.js";
import { RENDER_EXPIRY_EVERY_MS, renderExpiryJob } from "./render-expiry.job.js";
import { videoRenderJob } from "./render-job-definition.js";
import { RenderStories } from "./render-story.js";
import { VideoEditRepository } from "./video-edit.repository.js";
import { videoEditRoutes } from "./video-edit.routes.js";
import { VideoEditService } from "./video-edit.service.js";

export interface VideoEditModule {
  routes: FastifyPluginAsyncZod;
  service: VideoEditService;
}

/** Builds the video editor's server side once and registers its jobs, "video-edit.render" and "video-edit.expire" (called by app.ts). */
export function buildVideoEdit(deps: {
  db: Db;
  blobs: BlobStore;
  /** The `blobs` rows of renders (the blobs module's registry). */
  blobRegistry: BlobsService;
  media: VideoRenderTools;
  mediaConfig: MediaConfig;
  dataDir: string;
  jobs: JobEnqueuer & JobRegistrar & { get(id: string): Promise<JobRecord>; cancel(id: string): Promise<unknown> };
  stories: StoriesModule;
  libraries: LibrariesService;
  relations: RelationsService;
  /** A watermark preset's image (the presets module), for a logo drawn from a preset. */
  watermarkImage?(presetId: string): Promise<{ bytes: Buffer; type: string }>;
}): VideoEditModule {
  const repository = new VideoEditRepository(deps.db);
  const blobRows = deps.blobRegistry;
  const transaction = <T>(work: (trx: Kysely<Database>) => Promise<T>) => deps.db.kysely.transaction().execute(work);
  const job = videoRenderJob(
    {
      repository,
      stories: deps.stories.queries,
      original: (request) => deps.stories.downloads.resolve({ ...request, rendition: "original" }),
      blobs: deps.blobs,
      media: deps.media,
      insertBlobRow: (row, trx) => blobRows.register(row, trx),
      transaction,
      watermarkImage: deps.watermarkImage,
      workDir: path.join(deps.dataDir, "tmp", "video-render"),
    },
    { timeoutMs: Math.max(deps.mediaConfig.timeoutMs, 60_000) },
  );
  const service = new VideoEditService({
    repository,
    libraries: deps.libraries,
    stories: deps.stories.queries,
    jobs: {
      enqueue: (renderId, trx) =>
        deps.jobs.enqueue("video-edit.render", { renderId }, { transaction: trx, dedupeKey: `render:${renderId}` }),
      get: (id) => deps.jobs.get(id),
      cancel: (id) => deps.jobs.cancel(id),
    },
    transaction,
  });
  const stories = new RenderStories({
    service,
    repository,
    stories: deps.stories.stories,
    relations: deps.relations,
    blobs: deps.blobs,
    blobRow: (key) => blobRows.find(key),
    storyFile: (request) => deps.stories.downloads.resolve(request),
  });
  const expiryJob = renderExpiryJob({
    repository,
    blobs: deps.blobs,
    deleteBlobRow: (key, trx) => blobRows.forget([key], trx),
    job: (id) => deps.jobs.get(id).catch(() => undefined),
    transaction,
  });
  deps.jobs.register(job);
  deps.jobs.every(expiryJob, RENDER_EXPIRY_EVERY_MS, {});
  return { routes: videoEditRoutes({ service, stories, blobs: deps.blobs }), service };
}
