import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { JobsConfig } from "../../config.js";
import type { Db } from "../../db/database.js";
import { JobQueue } from "./job-queue.js";
import type { JobEnqueuer, JobRegistrar } from "./job-types.js";
import { type JobLogger, JobWorker } from "./job-worker.js";
import { type JobRecord, JobsRepository } from "./jobs.repository.js";
import { jobsRoutes } from "./jobs.routes.js";
import { JobsMonitor } from "./jobs-monitor.js";
import { JobsMonitorRepository } from "./jobs-monitor.repository.js";

/**
 * The jobs as the rest of the server sees them: enqueue by name
 * (`enqueue("stories.process", { ids })`), register the handlers of a
 * module's jobs (`register(handler)`, `every(handler, everyMs, payload)`),
 * cancel, and read a story's jobs.
 */
export interface Jobs extends JobEnqueuer, JobRegistrar {
  /** One job (NotFound when there is none). */
  get(jobId: string): Promise<JobRecord>;
  cancel(jobId: string): Promise<JobRecord>;
  /** The queue: admin operations, a story's jobs (`ofStory`), leases. */
  queue: JobQueue;
  /** This process's worker; `dams serve` (unless --no-workers) and `dams worker` start it. */
  worker: JobWorker;
  /** The task monitor: counts by name and state, the workers' heartbeats. */
  monitor: JobsMonitor;
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
  const monitor = new JobsMonitor(new JobsMonitorRepository(db));
  const worker = new JobWorker(queue, config, logger, monitor);
  return {
    enqueue: async (name, payload, options) => queue.enqueue(worker.definition(name), payload, options),
    register: (handler) => worker.register(handler),
    every: (handler, everyMs, payload) => worker.every(handler, everyMs, payload),
    get: (jobId) => queue.get(jobId),
    cancel: (jobId) => queue.cancel(jobId),
    queue,
    worker,
    monitor,
    routes: jobsRoutes(queue, monitor),
  };
}
