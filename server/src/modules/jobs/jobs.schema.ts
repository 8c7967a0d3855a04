import { z } from "zod";
import { pageQuery } from "../../http/envelope.js";

export const JOB_STATES = ["queued", "running", "succeeded", "dead", "cancelled"] as const;

export const jobSchema = z
  .object({
    id: z.string(),
    name: z.string().describe("the job definition, e.g. media.thumbnails"),
    payload: z.unknown().describe("the job's input: ids, never blobs"),
    state: z.enum(JOB_STATES),
    attempts: z.number().int().describe("attempts started so far"),
    maxAttempts: z.number().int(),
    runAt: z.string().describe("not claimed before this time (the backoff after a failure)"),
    leaseOwner: z.string().nullable().describe("the worker holding a running job"),
    leaseExpiresAt: z.string().nullable(),
    progress: z.number().int().min(0).max(100),
    lastError: z.string().nullable().describe("the reason of the last failure"),
    dedupeKey: z.string().nullable(),
    cancelRequested: z.boolean().describe("a running job asked to stop; it ends cancelled"),
    createdAt: z.string(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
    updatedAt: z.string(),
  })
  .meta({ id: "Job" });

export const jobListQuery = pageQuery.extend({
  keyword: z.string().max(200).optional().describe("a part of the job's name or of its last error, any case"),
  state: z.enum(JOB_STATES).optional(),
  name: z.string().min(1).max(200).optional(),
});

export const jobIdParams = z.object({ id: z.uuid() });

const stateCounts = z
  .object(
    Object.fromEntries(JOB_STATES.map((state) => [state, z.number().int()])) as Record<
      (typeof JOB_STATES)[number],
      z.ZodNumber
    >,
  )
  .meta({ id: "JobStateCounts" });

export const jobSummarySchema = z
  .object({
    byState: stateCounts.describe("jobs in each state, every name together"),
    byName: z
      .array(z.object({ name: z.string(), counts: stateCounts, total: z.number().int() }))
      .describe("per job name, its jobs in each state"),
  })
  .meta({ id: "JobSummary" });

export const jobWorkerSchema = z
  .object({
    id: z.string().describe("host:pid:random, as in a running job's leaseOwner"),
    host: z.string(),
    pid: z.number().int(),
    concurrency: z.number().int().describe("jobs it runs at once"),
    running: z.number().int().describe("jobs it was running at its last heartbeat"),
    startedAt: z.string(),
    lastSeenAt: z.string().describe("its last heartbeat (every 5 s while it runs)"),
    stoppedAt: z.string().nullable(),
    status: z.enum(["running", "stopped", "lost"]).describe("lost: no heartbeat for 30 s and not stopped cleanly"),
  })
  .meta({ id: "JobWorker" });
