import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ok, okPage, page } from "../../http/envelope.js";
import { apiRoute } from "../../http/route.js";
import { can } from "../auth/route-config.js";
import type { JobQueue } from "./job-queue.js";
import { jobIdParams, jobListQuery, jobSchema, jobSummarySchema, jobWorkerSchema } from "./jobs.schema.js";
import type { JobsMonitor } from "./jobs-monitor.js";

/** The task monitor's permission (/manage/monitor/task). */
const TASKS = "manage.monitor.task";
const tags = ["jobs"];

/** The job queue's admin API: list jobs by state or name, look at one, retry or cancel it. */
export function jobsRoutes(queue: JobQueue, monitor: JobsMonitor): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      "/jobs/summary",
      apiRoute(
        can(TASKS, "query"),
        { tags, summary: "Jobs counted by state and by name (the task monitor)" },
        jobSummarySchema,
      ),
      async () => ok(await monitor.summary()),
    );
    app.get(
      "/jobs/workers",
      apiRoute(
        can(TASKS, "query"),
        { tags, summary: "The job workers seen in the last day, with their last heartbeat" },
        z.array(jobWorkerSchema),
      ),
      async () => ok(await monitor.workers()),
    );
    app.get(
      "/jobs",
      apiRoute(
        can(TASKS, "query"),
        { tags, summary: "List jobs, newest first", querystring: jobListQuery },
        page(jobSchema),
      ),
      async (request) => okPage(await queue.list(request.query), request.query),
    );
    app.get(
      "/jobs/:id",
      apiRoute(can(TASKS, "query"), { tags, summary: "Get a job", params: jobIdParams }, jobSchema),
      async (request) => ok(await queue.get(request.params.id)),
    );
    app.post(
      "/jobs/:id/retry",
      apiRoute(
        can(TASKS, "update"),
        { tags, summary: "Run a dead or cancelled job again, with fresh attempts", params: jobIdParams },
        jobSchema,
      ),
      async (request) => ok(await queue.retry(request.params.id)),
    );
    app.post(
      "/jobs/:id/cancel",
      apiRoute(
        can(TASKS, "update"),
        {
          tags,
          summary: "Cancel a job: a queued one at once, a running one through its abort signal",
          params: jobIdParams,
        },
        jobSchema,
      ),
      async (request) => ok(await queue.cancel(request.params.id)),
    );
  };
}
