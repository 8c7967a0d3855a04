import type { Db } from "../../db/database.js";
import type { JobEnqueuer, JobRegistrar } from "../jobs/job-types.js";
import { StoryBatchRepository } from "./story-batch.repository.js";
import { storyBatchRoutes } from "./story-batch.routes.js";
import { type StoryBatchDependencies, StoryBatchService } from "./story-batch.service.js";

/** Builds the batch edits once (app.ts) and registers their job's handler. */
export function buildStoryBatch(
  db: Db,
  deps: Omit<StoryBatchDependencies, "batches" | "jobs"> & { jobs: JobEnqueuer & JobRegistrar },
) {
  const service = new StoryBatchService({ ...deps, batches: new StoryBatchRepository(db) });
  deps.jobs.register(service.job());
  return { service, routes: storyBatchRoutes(service) };
}
