import type { Kysely, Transaction } from "kysely";
import type { Database } from "../../db/schema.js";

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
 * A named, typed handler. Payloads carry ids, never blobs; handlers reload
 * what they need and must be idempotent (a job may run again after a crash).
 * Throw `PermanentJobError` for input that will never work (a broken file):
 * the job goes straight to dead with the reason, without retries.
 */
export interface JobDefinition<Payload> {
  name: string;
  /** Attempts before the job is dead (default 5). */
  maxAttempts?: number;
  /** Wall-clock limit of one attempt in ms (default 10 minutes). */
  timeoutMs?: number;
  run(payload: Payload, context: JobContext): Promise<void>;
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

/** What the rest of the server uses to start work. */
export interface JobEnqueuer {
  enqueue<Payload>(definition: JobDefinition<Payload>, payload: Payload, options?: EnqueueOptions): Promise<string>;
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
