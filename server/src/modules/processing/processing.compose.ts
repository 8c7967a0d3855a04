import type { MediaConfig } from "../../config.js";
import type { MediaTools } from "../../media/index.js";
import type { BlobStore } from "../blobs/blob-store.js";
import type { JobQueue } from "../jobs/job-queue.js";
import type { JobRegistrar } from "../jobs/job-types.js";
import { processStoriesJob } from "./process-stories.job.js";
import { ProcessingRepair, type RepairStories } from "./processing-repair.js";
import { type ProcessingStories, StoryMediaProcessor } from "./story-media.processor.js";

declare module "fastify" {
  interface FastifyInstance {
    /** Stories a processing job ended without telling: repaired at start-up and in maintenance. */
    processingRepair: ProcessingRepair;
  }
}

/**
 * Builds the media processor and registers its job, "stories.process" (called
 * once by app.ts); answers the repair of stories whose job ended without
 * telling them (run at start-up and in maintenance).
 */
export function registerMediaProcessing(deps: {
  jobs: JobRegistrar & { queue: Pick<JobQueue, "ofStory"> };
  stories: ProcessingStories & RepairStories;
  blobs: BlobStore;
  media: MediaTools;
  config: MediaConfig;
  /** Scratch space for renditions before they go into the blob store. */
  workDir: string;
  onBlobDeleteError?: (key: string, error: unknown) => void;
}): ProcessingRepair {
  const processor = new StoryMediaProcessor({
    stories: deps.stories,
    blobs: deps.blobs,
    media: deps.media,
    workDir: deps.workDir,
    onBlobDeleteError: deps.onBlobDeleteError,
  });
  // An attempt renders every rendition of one story; ffmpeg's own limit is per call.
  const repair = new ProcessingRepair({ stories: deps.stories, jobs: deps.jobs.queue });
  deps.jobs.register(processStoriesJob(processor, { timeoutMs: Math.max(deps.config.timeoutMs, 60_000), repair }));
  return repair;
}
