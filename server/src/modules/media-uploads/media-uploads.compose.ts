import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { MediaConfig } from "../../config.js";
import type { Db } from "../../db/database.js";
import type { BlobStore } from "../blobs/blob-store.js";
import { BlobsRepository } from "../blobs/blobs.repository.js";
import type { JobDefinition } from "../jobs/job-types.js";
import type { StoriesModule } from "../stories/stories.compose.js";
import type { ProcessStoriesPayload } from "../stories/stories.service.js";
import { MediaJobsRepository } from "./media-jobs.repository.js";
import { mediaUploadsRoutes } from "./media-uploads.routes.js";
import { MediaUploadsService } from "./media-uploads.service.js";
import { storyJobsRoutes } from "./story-jobs.routes.js";

export interface MediaUploadsModuleDependencies {
  db: Db;
  stories: StoriesModule;
  blobs: BlobStore;
  processingJob: JobDefinition<ProcessStoriesPayload>;
  media: MediaConfig;
  /** The body limit of the image-saving calls, which also bounds a stored cover read back. */
  imageBodyLimit: number;
}

/** Builds the media-uploads service and its routes (called once by app.ts). */
export function mediaUploadsModule(deps: MediaUploadsModuleDependencies): FastifyPluginAsyncZod {
  const jobs = new MediaJobsRepository(deps.db);
  const service = new MediaUploadsService({
    stories: deps.stories.stories,
    queries: deps.stories.queries,
    libraries: deps.stories.libraries,
    folders: deps.stories.folders,
    blobs: deps.blobs,
    blobRows: new BlobsRepository(deps.db),
    jobs,
    processingJobName: deps.processingJob.name,
    // libvips takes at most an hour, and an editor's image never needs more than two minutes.
    images: { maxPixels: deps.media.maxPixels, timeoutSeconds: 120 },
    maxImageBytes: deps.imageBodyLimit,
  });
  return async (app) => {
    await app.register(mediaUploadsRoutes(service, { imageBodyLimit: deps.imageBodyLimit }));
    await app.register(storyJobsRoutes({ queries: deps.stories.queries, jobs }));
  };
}
