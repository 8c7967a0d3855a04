import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { commonErrorResponses, envelope, errorEnvelope, ok, page, toPage } from "../../http/envelope.js";
import type { JobQueue } from "./job-queue.js";
import { jobIdParams, jobListQuery, jobSchema, jobSummarySchema, jobWorkerSchema } from "./jobs.schema.js";
import type { JobsMonitor } from "./jobs-monitor.js";

const errors = {
  ...commonErrorResponses,
  401: errorEnvelope,
  403: errorEnvelope,
  404: errorEnvelope,
  409: errorEnvelope,
};

/** The task monitor's permission (/manage/monitor/task). */
const TASKS = "manage.monitor.task";

/** The job queue's admin API: list jobs by state or name, look at one, retry or cancel it. */
export function jobsRoutes(queue: JobQueue, monitor: JobsMonitor): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      "/jobs/summary",
      {
        config: { access: { permission: TASKS, action: "query" } },
        schema: {
          tags: ["jobs"],
          summary: "Jobs counted by state and by name (the task monitor)",
          response: { 200: envelope(jobSummarySchema), ...errors },
        },
      },
      async () => ok(await monitor.summary()),
    );
    app.get(
      "/jobs/workers",
      {
        config: { access: { permission: TASKS, action: "query" } },
        schema: {
          tags: ["jobs"],
          summary: "The job workers seen in the last day, with their last heartbeat",
          response: { 200: envelope(z.array(jobWorkerSchema)), ...errors },
        },
      },
      async () => ok(await monitor.workers()),
    );
    app.get(
      "/jobs",
      {
        config: { access: { permission: TASKS, action: "query" } },
        schema: {
          tags: ["jobs"],
          summary: "List jobs, newest first",
          querystring: jobListQuery,
          response: { 200: envelope(page(jobSchema)), ...errors },
        },
      },
      async (request) => {
        const { content, total } = await queue.list(request.query);
        return ok(toPage(content, total, request.query));
      },
    );
    app.get(
      "/jobs/:id",
      {
        config: { access: { permission: TASKS, action: "query" } },
        schema: {
          tags: ["jobs"],
          summary: "Get a job",
          params: jobIdParams,
          response: { 200: envelope(jobSchema), ...errors },
        },
      },
      async (request) => ok(await queue.get(request.params.id)),
    );
    app.post(
      "/jobs/:id/retry",
      {
        config: { access: { permission: TASKS, action: "update" } },
        schema: {
          tags: ["jobs"],
          summary: "Run a dead or cancelled job again, with fresh attempts",
          params: jobIdParams,
          response: { 200: envelope(jobSchema), ...errors },
        },
      },
      async (request) => ok(await queue.retry(request.params.id)),
    );
    app.post(
      "/jobs/:id/cancel",
      {
        config: { access: { permission: TASKS, action: "update" } },
        schema: {
          tags: ["jobs"],
          summary: "Cancel a job: a queued one at once, a running one through its abort signal",
          params: jobIdParams,
          response: { 200: envelope(jobSchema), ...errors },
        },
      },
      async (request) => ok(await queue.cancel(request.params.id)),
    );
  };
}
