import { afterEach } from "vitest";
import type { JobsConfig } from "../../../config.js";
import type { Db } from "../../../db/database.js";
import { eventually } from "../../../test/eventually.js";
import { JobQueue } from "../job-queue.js";
import type { JobDefinition } from "../job-types.js";
import { JobWorker } from "../job-worker.js";
import { type JobRecord, JobsRepository } from "../jobs.repository.js";

/**
 * Short polls and backoffs, so the tests are quick. The lease stays long
 * enough that a busy machine's pauses never expire it by accident (that would
 * rightly run a job twice); tests of lease expiry claim with a short lease.
 */
export const FAST_JOBS: JobsConfig = {
  workers: 2,
  pollIntervalMs: 50,
  leaseMs: 10_000,
  backoffBaseMs: 20,
  backoffMaxMs: 100,
  progressIntervalMs: 0,
  stopTimeoutMs: 2000,
  abortGraceMs: 300,
};

/** A promise the test resolves by hand. */
export function gate(): { promise: Promise<void>; open(): void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** Resolves when the signal aborts, with its reason. */
export function aborted(signal: AbortSignal): Promise<unknown> {
  return new Promise((resolve) =>
    signal.aborted ? resolve(signal.reason) : signal.addEventListener("abort", () => resolve(signal.reason)),
  );
}

let counter = 0;
/** A job name of its own per test, so workers of different tests never claim each other's jobs. */
export function uniqueName(label: string): string {
  counter += 1;
  return `test.${label}.${counter}.${Date.now()}`;
}

/** Queues and workers over a test database; every worker started is stopped after each test. */
export function useJobs(db: () => Db) {
  const workers: JobWorker[] = [];
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop()));
  });
  return {
    /** A queue; `queue({ leaseMs })` for one whose claims expire soon. */
    queue(settings: Partial<JobsConfig> = {}): JobQueue {
      return new JobQueue(new JobsRepository(db()), { ...FAST_JOBS, ...settings });
    },
    worker(queue: JobQueue, definitions: JobDefinition<never>[], settings: Partial<JobsConfig> = {}): JobWorker {
      const worker = new JobWorker(queue, { ...FAST_JOBS, ...settings });
      for (const definition of definitions) worker.register(definition);
      worker.start();
      workers.push(worker);
      return worker;
    },
    untilState(queue: JobQueue, id: string, states: JobRecord["state"][]): Promise<JobRecord> {
      return eventually(
        () => queue.get(id),
        (job) => states.includes(job.state),
      );
    },
  };
}
