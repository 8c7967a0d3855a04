import type { Kysely, Transaction } from "kysely";
import type { Database } from "../../db/schema.js";
import type { JobName, JobPayloads } from "./job-names.js";

export type { JobName, JobPayloads } from "./job-names.js";

/** A job's life: queued → running → (succeeded | failed → queued again with backoff | dead | cancelled). */
export type JobState = "queued" | "running" | "succeeded" | "dead" | "cancelled";

/** What a handler is given besides its payload. */
export interface JobContext {
  jobId: string;
  /** 1 for the first run. */
  attempt: number;
  /** Aborted when the job is cancelled, its lease is lost, its timeout passes or the worker stops (`signal.reason` is a JobAbortedError); handlers pass it to ffmpeg & co. */
  signal: AbortSignal;
  /** Reports progress 0-100 (throttled by the queue). */
  progress(percent: number): Promise<void>;
}

/**
 * How an attempt ended, as its handler says: `succeeded`; `skipped` (nothing
 * to do: the story was deleted meanwhile; the job ends succeeded and the
 * reason is logged); `failed` with a reason a person can read, tried again
 * after the backoff when `retry` (a timeout, a service that may come back),
 * else dead at once (input that will never work: a broken file).
 */
export type JobResult =
  | { outcome: "succeeded" }
  | { outcome: "skipped"; reason: string }
  | { outcome: "failed"; reason: string; retry: boolean; delayMs?: number };

export const jobSucceeded: JobResult = { outcome: "succeeded" };

export function jobSkipped(reason: string): JobResult {
  return { outcome: "skipped", reason };
}

/**
 * A failed attempt. `delayMs`: the next attempt waits at least this long
 * (instead of the backoff when that is shorter), e.g. an HTTP Retry-After.
 */
export function jobFailed(reason: string, options: { retry: boolean; delayMs?: number }): JobResult {
  return options.delayMs === undefined
    ? { outcome: "failed", reason, retry: options.retry }
    : { outcome: "failed", reason, retry: options.retry, delayMs: options.delayMs };
}

/**
 * A named handler, as the worker runs it. Payloads carry ids, never blobs;
 * handlers reload what they need and must be idempotent (a job may run again
 * after a crash). A handler that throws has failed an attempt (retried);
 * `PermanentJobError` sends the job straight to dead with its reason.
 * The server's own jobs are `JobHandler`s, which return an explicit result.
 */
export interface JobDefinition<Payload> {
  name: string;
  /** Attempts before the job is dead (default 5). */
  maxAttempts?: number;
  /** Wall-clock limit of one attempt in ms (default 10 minutes). */
  timeoutMs?: number;
  // biome-ignore lint/suspicious/noConfusingVoidType: a bare definition (the queue's own tests) may return nothing: succeeded.
  run(payload: Payload, context: JobContext): Promise<JobResult | void>;
  /**
   * Told once the job is dead (no attempt follows: its last one failed, or
   * its worker was lost on the last one), so what the job works on shows it
   * (a story's processing state). Not told when a crash comes first: the
   * owner of that state also repairs it at start-up.
   */
  onDead?(payload: Payload, reason: string): Promise<void>;
}

/** A handler of one of the server's jobs (job-names.ts), registered by the module that does the work. */
export interface JobHandler<Name extends JobName> extends JobDefinition<JobPayloads[Name]> {
  name: Name;
  run(payload: JobPayloads[Name], context: JobContext): Promise<JobResult>;
}

export class PermanentJobError extends Error {}

export interface EnqueueOptions {
  /** Not before this time (ISO string). */
  runAt?: string;
  /** A job with the same name and key that is queued or running is not enqueued twice. */
  dedupeKey?: string;
  /** The story the job works on, so its readers can follow it (GET /stories/{library}/{id}/processing). */
  storyId?: string;
  /** Runs inside this transaction, so the job exists exactly when the rows that need it do. */
  transaction?: Transaction<Database> | Kysely<Database>;
}

/** What the rest of the server uses to start work: a job by its name, with its payload. */
export interface JobEnqueuer {
  enqueue<Name extends JobName>(name: Name, payload: JobPayloads[Name], options?: EnqueueOptions): Promise<string>;
}

/** Where a module registers the handlers of the jobs it does the work of (built once: `app.jobs`). */
export interface JobRegistrar {
  register<Name extends JobName>(handler: JobHandler<Name>): void;
  /** A job that runs every `everyMs` while a worker runs (one at a time across processes). */
  every<Name extends JobName>(handler: JobHandler<Name>, everyMs: number, payload: JobPayloads[Name]): void;
}

/** Why a job's signal aborted. */
export type JobAbortCause = "cancelled" | "timeout" | "lease-lost" | "shutdown";

/** The `signal.reason` of an aborted job; handlers may rethrow it. */
export class JobAbortedError extends Error {
  constructor(readonly abortCause: JobAbortCause) {
    super(`job aborted: ${abortCause}`);
    this.name = "JobAbortedError";
  }
}
