import { randomUUID } from "node:crypto";
import type { JobsConfig } from "../../config.js";
import { Conflict, NotFound } from "../../http/errors.js";
import { type EnqueueOptions, type JobDefinition, type JobState, PermanentJobError } from "./job-types.js";
import type { JobFilter, JobRecord, JobsRepository, Lease, StoryJobFilter } from "./jobs.repository.js";

export const DEFAULT_MAX_ATTEMPTS = 5;
const MAX_REASON_LENGTH = 2000;

/** A job a worker holds: the row as claimed and the lease that fences its writes. */
export interface ClaimedJob {
  job: JobRecord;
  lease: Lease;
}

export type QueueSettings = Pick<JobsConfig, "leaseMs" | "backoffBaseMs" | "backoffMaxMs">;

/**
 * Exponential backoff with "equal jitter": half of the doubled delay is fixed,
 * the other half random, so retries of jobs that failed together spread out.
 */
export function retryDelayMs(attempt: number, settings: QueueSettings, random: () => number = Math.random): number {
  const exponential = Math.min(settings.backoffMaxMs, settings.backoffBaseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exponential / 2 + random() * (exponential / 2));
}

export function describeError(error: unknown): string {
  const text = error instanceof Error ? error.message || error.name : String(error);
  return text.length > MAX_REASON_LENGTH ? `${text.slice(0, MAX_REASON_LENGTH - 1)}…` : text;
}

function iso(milliseconds: number): string {
  return new Date(milliseconds).toISOString();
}

/**
 * The durable queue: enqueue (the server enqueues by name through `Jobs`,
 * jobs.compose.ts), the admin operations (list, cancel, retry), a story's
 * jobs, and the lease operations a JobWorker uses.
 */
export class JobQueue {
  readonly #enqueueListeners = new Set<() => void>();
  readonly #cancelListeners = new Set<(jobId: string) => void>();

  constructor(
    private readonly repository: JobsRepository,
    private readonly settings: QueueSettings,
  ) {}

  async enqueue<Payload>(
    definition: Pick<JobDefinition<Payload>, "name" | "maxAttempts">,
    payload: Payload,
    options: EnqueueOptions = {},
  ): Promise<string> {
    const now = iso(Date.now());
    const id = await this.repository.insert(
      {
        name: definition.name,
        payload: payload ?? null,
        maxAttempts: definition.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
        runAt: options.runAt ? new Date(options.runAt).toISOString() : now,
        dedupeKey: options.dedupeKey ?? null,
        storyId: options.storyId ?? null,
      },
      now,
      options.transaction,
    );
    for (const listener of this.#enqueueListeners) listener();
    return id;
  }

  /** Called after every local enqueue, so an idle worker in this process claims at once. */
  onEnqueued(listener: () => void): () => void {
    this.#enqueueListeners.add(listener);
    return () => this.#enqueueListeners.delete(listener);
  }

  /** Called when a running job is asked to cancel through this process. */
  onCancelRequested(listener: (jobId: string) => void): () => void {
    this.#cancelListeners.add(listener);
    return () => this.#cancelListeners.delete(listener);
  }

  // Admin operations

  async get(id: string): Promise<JobRecord> {
    const job = await this.repository.findById(id);
    if (!job) throw new NotFound("job not found", "job_not_found");
    return job;
  }

  list(filter: JobFilter): Promise<{ content: JobRecord[]; total: number }> {
    return this.repository.list(filter);
  }

  /** The jobs of one story (those enqueued with its `storyId`), newest first. */
  ofStory(storyId: string, filter: StoryJobFilter): Promise<JobRecord[]> {
    return this.repository.ofStory(storyId, filter);
  }

  /** Forgets finished jobs: succeeded and cancelled ones after `doneDays`, dead ones (kept for operators) after `deadDays`. */
  async prune(options: { doneDays: number; deadDays: number }, now = Date.now()): Promise<number> {
    const day = 24 * 60 * 60 * 1000;
    const done = await this.repository.deleteFinished(["succeeded", "cancelled"], iso(now - options.doneDays * day));
    const dead = await this.repository.deleteFinished(["dead"], iso(now - options.deadDays * day));
    return done + dead;
  }

  countByState(): Promise<Partial<Record<JobState, number>>> {
    return this.repository.countByState();
  }

  /** A queued job is cancelled at once; a running one has its signal aborted and ends cancelled. */
  async cancel(id: string, tries = 3): Promise<JobRecord> {
    const now = iso(Date.now());
    if (await this.repository.cancelQueued(id, now)) return this.get(id);
    if (await this.repository.requestCancel(id, now)) {
      for (const listener of this.#cancelListeners) listener(id);
      return this.get(id);
    }
    const job = await this.get(id);
    if (job.state === "cancelled") return job;
    // The job moved on between the statements (e.g. claimed just now): try once more.
    if ((job.state === "queued" || job.state === "running") && tries > 1) return this.cancel(id, tries - 1);
    throw new Conflict(`a ${job.state} job cannot be cancelled now`, "job_not_cancellable");
  }

  /** Runs a dead or cancelled job again, with fresh attempts. */
  async retry(id: string): Promise<JobRecord> {
    if (await this.repository.requeue(id, iso(Date.now()))) {
      // Read before the workers are woken: the answer is the job as retried, not as a worker already claimed it.
      const requeued = await this.get(id);
      for (const listener of this.#enqueueListeners) listener();
      return requeued;
    }
    const job = await this.get(id);
    if (job.state === "dead" || job.state === "cancelled") {
      throw new Conflict("an identical job is already queued or running", "job_duplicate");
    }
    throw new Conflict(`a ${job.state} job cannot be retried`, "job_not_retryable");
  }

  // Lease operations (JobWorker)

  async claim(names: string[], limit: number, workerId: string): Promise<ClaimedJob[]> {
    const now = Date.now();
    const owner = `${workerId}/${randomUUID()}`;
    const jobs = await this.repository.claim(names, limit, owner, iso(now), iso(now + this.settings.leaseMs));
    return jobs.map((job) => ({ job, lease: { jobId: job.id, owner } }));
  }

  /** Ends jobs whose worker was lost when they must not run again (cancel requested, or no attempts left). */
  settleExpired(): Promise<{ settled: number; dead: JobRecord[] }> {
    return this.repository.settleExpired(iso(Date.now()));
  }

  /** Renews a lease: "lost" when another worker has the job now, "cancel" when a cancel was requested. */
  async renew(lease: Lease): Promise<"ok" | "lost" | "cancel"> {
    const now = Date.now();
    const renewed = await this.repository.renew(lease, iso(now + this.settings.leaseMs), iso(now));
    if (!renewed) return "lost";
    return renewed.cancelRequested ? "cancel" : "ok";
  }

  async saveProgress(lease: Lease, percent: number): Promise<void> {
    await this.repository.setProgress(lease, percent, iso(Date.now()));
  }

  async succeed(lease: Lease): Promise<JobState | undefined> {
    const done = await this.repository.finish(lease, { state: "succeeded", progress: 100 }, iso(Date.now()));
    return done ? "succeeded" : undefined;
  }

  async finishCancelled(lease: Lease): Promise<JobState | undefined> {
    const done = await this.repository.finish(lease, { state: "cancelled" }, iso(Date.now()));
    return done ? "cancelled" : undefined;
  }

  /**
   * Records a failed attempt: dead at once for a PermanentJobError or when no
   * attempts are left, else queued again after the backoff. A cancel requested
   * meanwhile wins. `minDelayMs`: the next attempt waits at least this long
   * (the handler was told when to come back, e.g. an HTTP Retry-After).
   * Returns the new state, or undefined when the lease was lost.
   */
  async fail(claimed: ClaimedJob, error: unknown, minDelayMs = 0): Promise<JobState | undefined> {
    const now = Date.now();
    const reason = describeError(error);
    const { job, lease } = claimed;
    const dead = error instanceof PermanentJobError || job.attempts >= job.maxAttempts;
    const outcome = dead
      ? { state: "dead" as const, lastError: reason }
      : {
          state: "queued" as const,
          lastError: reason,
          runAt: iso(now + Math.max(minDelayMs, retryDelayMs(job.attempts, this.settings))),
        };
    if (await this.repository.finish(lease, outcome, iso(now), true)) return outcome.state;
    return this.finishCancelled(lease);
  }

  /** Gives a held job back without counting the attempt (a worker stopping). */
  async release(lease: Lease): Promise<boolean> {
    return this.repository.release(lease, iso(Date.now()));
  }
}
