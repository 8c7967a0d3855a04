import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ok } from "../../http/envelope.js";
import { apiRoute } from "../../http/route.js";
import { inLibrary } from "../auth/route-config.js";
import type { JobQueue } from "../jobs/job-queue.js";
import { JOB_STATES } from "../jobs/jobs.schema.js";
import { storyParams } from "../stories/stories.schema.js";
import type { StoryQueries } from "../stories/story-queries.service.js";
import { PROCESSING_STATES } from "../stories/story-types.js";

/** How many of a story's jobs the viewer is shown (newest first). */
const RECENT_JOBS = 10;

const storyJobSchema = z.object({
  id: z.string(),
  kind: z.string().describe("the job's name, e.g. stories.process (thumbnail, preview, proxy transcode…)"),
  state: z.enum(JOB_STATES),
  progress: z.number().int().describe("0-100, written at most once per DAMS_JOBS_PROGRESS_MS"),
  error: z.string().nullable().describe("the reason of the last failed attempt"),
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  updatedAt: z.string(),
});

export const storyProcessingSchema = z
  .object({
    processingState: z.enum(PROCESSING_STATES).describe("the story's own summary: none, queued, running, done, failed"),
    processingError: z.string().nullable(),
    versionNo: z.number().int(),
    jobs: z.array(storyJobSchema).describe("the story's newest jobs, newest first"),
  })
  .meta({ id: "StoryProcessing" });

/**
 * A story's processing for anyone who can read it (the jobs API is for
 * administrators): its jobs' states and progress, by the jobs' story_id.
 */
export function storyJobsRoutes(deps: {
  queries: StoryQueries;
  jobs: Pick<JobQueue, "ofStory">;
}): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      "/stories/:libraryId/:storyId/processing",
      apiRoute(
        inLibrary({ permission: "search", action: "get" }, "read"),
        {
          tags: ["stories"],
          summary: "The story's media processing: its state and its jobs with progress, for readers of the story",
          params: storyParams,
        },
        storyProcessingSchema,
      ),
      async (request) => {
        const story = await deps.queries.require(request.params.libraryId, request.params.storyId);
        const jobs = await deps.jobs.ofStory(story.id, { limit: RECENT_JOBS });
        return ok({
          processingState: story.processingState,
          processingError: story.processingError,
          versionNo: story.versionNo,
          jobs: jobs.map((job) => ({
            id: job.id,
            kind: job.name,
            state: job.state,
            progress: job.progress,
            error: job.lastError,
            attempts: job.attempts,
            maxAttempts: job.maxAttempts,
            createdAt: job.createdAt,
            startedAt: job.startedAt,
            finishedAt: job.finishedAt,
            updatedAt: job.updatedAt,
          })),
        });
      },
    );
  };
}
