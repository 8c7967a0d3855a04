import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { JobsConfig } from "../../config.js";
import type { Db } from "../../db/database.js";
import { JobQueue } from "./job-queue.js";
import { type JobLogger, JobWorker } from "./job-worker.js";
import { JobsRepository } from "./jobs.repository.js";
import { jobsRoutes } from "./jobs.routes.js";

export interface Jobs {
  /** The JobEnqueuer the rest of the server starts work with; also the admin operations. */
  queue: JobQueue;
  /** Register definitions with `worker.register(definition)`; `dams serve` and `dams worker` start it. */
  worker: JobWorker;
  /** The admin API, mounted under /dams/api/v1. */
  routes: FastifyPluginAsyncZod;
}

declare module "fastify" {
  interface FastifyInstance {
    /** The job queue and this process's worker (started by `dams serve` unless --no-workers, and `dams worker`). */
    jobs: Jobs;
  }
}

/** Builds the queue, the (not yet started) worker and the admin routes; called once by app.ts. */
export function buildJobs(db: Db, config: JobsConfig, logger?: JobLogger): Jobs {
  const queue = new JobQueue(new JobsRepository(db), config);
  return { queue, worker: new JobWorker(queue, config, logger), routes: jobsRoutes(queue) };
}
