import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { MediaTools } from "../../media/index.js";
import type { BlobStore } from "../blobs/blob-store.js";
import type { BlobsService } from "../blobs/blobs.service.js";
import type { FoldersService } from "../folders/folders.service.js";
import type { IngestService } from "../ingest/ingest.service.js";
import type { JobQueue } from "../jobs/job-queue.js";
import type { StoriesModule } from "../stories/stories.compose.js";
import { mediaUploadsRoutes } from "./media-uploads.routes.js";
import { MediaUploadsService } from "./media-uploads.service.js";
import { storyJobsRoutes } from "./story-jobs.routes.js";

export interface MediaUploadsModuleDependencies {
  stories: StoriesModule;
  folders: FoldersService;
  blobs: BlobStore;
  /** The registry of stored files (the blobs module's BlobsService). */
  blobRegistry: BlobsService;
  /** The image editor's save goes through the ingest command. */
  ingest: Pick<IngestService, "ingestFile">;
  /** A story's jobs (the jobs module's). */
  jobs: Pick<JobQueue, "ofStory">;
  media: MediaTools;
  /** The body limit of the image-saving calls, which also bounds a stored cover read back. */
  imageBodyLimit: number;
}

/** Builds the media-uploads service and its routes (called once by app.ts). */
export function mediaUploadsModule(deps: MediaUploadsModuleDependencies): FastifyPluginAsyncZod {
  const service = new MediaUploadsService({
    stories: deps.stories.stories,
    access: deps.stories.access,
    queries: deps.stories.queries,
    folders: deps.folders,
    blobs: deps.blobs,
    blobRows: deps.blobRegistry,
    ingest: deps.ingest,
    jobs: deps.jobs,
    media: deps.media,
    maxImageBytes: deps.imageBodyLimit,
  });
  return async (app) => {
    await app.register(mediaUploadsRoutes(service, { imageBodyLimit: deps.imageBodyLimit }));
    await app.register(storyJobsRoutes({ queries: deps.stories.queries, jobs: deps.jobs }));
  };
}
