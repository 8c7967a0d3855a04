import { describe, expect, it } from "vitest";
import { describeEachDialect, useTestDb } from "../../test/dialects.js";
import { eventually } from "../../test/eventually.js";
import { retryDelayMs } from "./job-queue.js";
import {
  JobAbortedError,
  type JobContext,
  type JobDefinition,
  jobFailed,
  jobSkipped,
  jobSucceeded,
  PermanentJobError,
} from "./job-types.js";
import { LOST_WORKER_REASON } from "./jobs.repository.js";
import { aborted, gate, uniqueName, useJobs } from "./test-support/jobs-harness.js";

describe("retryDelayMs", () => {
  const settings = { leaseMs: 1000, backoffBaseMs: 1000, backoffMaxMs: 60_000 };

  it("doubles per attempt, half fixed and half jitter, up to the maximum", () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(attempt, settings, () => 0))).toEqual([500, 1000, 2000, 4000]);
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(attempt, settings, () => 1))).toEqual([1000, 2000, 4000, 8000]);
    expect(retryDelayMs(20, settings, () => 1)).toBe(60_000);
    expect(retryDelayMs(20, settings, () => 0)).toBe(30_000);
  });
});

describeEachDialect("job queue and worker", (dialect) => {
  const db = useTestDb(dialect);
  const jobs = useJobs(db);

  it("runs a job once with its payload and context, and ends succeeded at 100%", async () => {
    const queue = jobs.queue();
    const seen: { payload: unknown; jobId: string; attempt: number }[] = [];
    const definition: JobDefinition<{ storyId: string }> = {
      name: uniqueName("happy"),
      async run(payload, context) {
        seen.push({ payload, jobId: context.jobId, attempt: context.attempt });
      },
    };
    jobs.worker(queue, [definition]);
    const id = await queue.enqueue(definition, { storyId: "s-1" });
    const job = await jobs.untilState(queue, id, ["succeeded", "dead"]);
    expect(job).toMatchObject({ state: "succeeded", attempts: 1, progress: 100, lastError: null, leaseOwner: null });
    expect(job.payload).toEqual({ storyId: "s-1" });
    expect(job.finishedAt).not.toBeNull();
    expect(seen).toEqual([{ payload: { storyId: "s-1" }, jobId: id, attempt: 1 }]);
  });

  it("wakes an idle worker of the same process when a job is enqueued, without waiting for the next poll", async () => {
    const queue = jobs.queue();
    const definition: JobDefinition<null> = { name: uniqueName("wake"), async run() {} };
    // Its first look finds nothing; the next poll would be ten minutes away.
    const worker = jobs.worker(queue, [definition], { pollIntervalMs: 600_000 });
    await eventually(
      async () => worker.claimPasses,
      (passes) => passes >= 1,
    );
    const id = await queue.enqueue(definition, null);
    expect((await jobs.untilState(queue, id, ["succeeded", "dead"])).state).toBe("succeeded");
  });

  it("retries a failing job after a backoff and then succeeds", async () => {
    const queue = jobs.queue();
    const attempts: number[] = [];
    const definition: JobDefinition<null> = {
      name: uniqueName("flaky"),
      async run(_payload, context) {
        attempts.push(context.attempt);
        if (context.attempt < 3) throw new Error(`flaky failure ${context.attempt}`);
      },
    };
    jobs.worker(queue, [definition]);
    const id = await queue.enqueue(definition, null);
    const job = await jobs.untilState(queue, id, ["succeeded", "dead"]);
    expect(job).toMatchObject({ state: "succeeded", attempts: 3, lastError: "flaky failure 2" });
    expect(attempts).toEqual([1, 2, 3]);
  });

  it("puts a failed job back in the queue with run_at pushed out by the backoff", async () => {
    const queue = jobs.queue({ backoffBaseMs: 60_000, backoffMaxMs: 600_000 });
    const failed = gate();
    const definition: JobDefinition<null> = {
      name: uniqueName("backoff"),
      async run() {
        failed.open();
        throw new Error("the wire service is down");
      },
    };
    jobs.worker(queue, [definition], { backoffBaseMs: 60_000 });
    const id = await queue.enqueue(definition, null);
    await failed.promise;
    const job = await eventually(
      () => queue.get(id),
      (current) => current.state === "queued" && current.attempts === 1,
    );
    const delay = Date.parse(job.runAt) - Date.parse(job.updatedAt);
    expect(delay).toBeGreaterThanOrEqual(30_000);
    expect(delay).toBeLessThanOrEqual(60_000);
    expect(job).toMatchObject({ lastError: "the wire service is down", leaseOwner: null, finishedAt: null });
  });

  it("sends a job that throws PermanentJobError straight to dead with the reason", async () => {
    const queue = jobs.queue();
    const definition: JobDefinition<null> = {
      name: uniqueName("permanent"),
      maxAttempts: 5,
      async run() {
        throw new PermanentJobError("not an image: the file starts with <html>");
      },
    };
    jobs.worker(queue, [definition]);
    const id = await queue.enqueue(definition, null);
    const job = await jobs.untilState(queue, id, ["succeeded", "dead"]);
    expect(job).toMatchObject({
      state: "dead",
      attempts: 1,
      lastError: "not an image: the file starts with <html>",
    });
  });

  it("takes the handler's result: skipped ends succeeded, failed is dead at once or tried again as it says", async () => {
    const queue = jobs.queue();
    const attempts: Record<string, number[]> = { flaky: [], broken: [] };
    const definition: JobDefinition<{ kind: "skip" | "flaky" | "broken" }> = {
      name: uniqueName("results"),
      maxAttempts: 5,
      async run({ kind }, context) {
        if (kind === "skip") return jobSkipped("the story was deleted meanwhile");
        attempts[kind]!.push(context.attempt);
        if (kind === "broken") return jobFailed("not an image: the file starts with <html>", { retry: false });
        return context.attempt < 2 ? jobFailed("the wire service is down", { retry: true }) : jobSucceeded;
      },
    };
    jobs.worker(queue, [definition]);
    const [skip, flaky, broken] = await Promise.all(
      (["skip", "flaky", "broken"] as const).map((kind) => queue.enqueue(definition, { kind })),
    );
    const finished = (id: string) => jobs.untilState(queue, id!, ["succeeded", "dead"]);
    expect(await finished(skip!)).toMatchObject({ state: "succeeded", attempts: 1, lastError: null, progress: 100 });
    expect(await finished(flaky!)).toMatchObject({
      state: "succeeded",
      attempts: 2,
      lastError: "the wire service is down",
    });
    expect(await finished(broken!)).toMatchObject({
      state: "dead",
      attempts: 1,
      lastError: "not an image: the file starts with <html>",
    });
    expect(attempts).toEqual({ flaky: [1, 2], broken: [1] });
  });

  it("sends a job to dead with the last reason when its attempts run out", async () => {
    const queue = jobs.queue();
    const definition: JobDefinition<null> = {
      name: uniqueName("exhausted"),
      maxAttempts: 3,
      async run(_payload, context) {
        throw new Error(`failure ${context.attempt}`);
      },
    };
    jobs.worker(queue, [definition]);
    const id = await queue.enqueue(definition, null);
    const job = await jobs.untilState(queue, id, ["succeeded", "dead"]);
    expect(job).toMatchObject({ state: "dead", attempts: 3, maxAttempts: 3, lastError: "failure 3" });
  });

  it("runs a dead job again when it is retried", async () => {
    const queue = jobs.queue();
    let healthy = false;
    const definition: JobDefinition<null> = {
      name: uniqueName("revived"),
      maxAttempts: 1,
      async run() {
        if (!healthy) throw new Error("storage offline");
      },
    };
    jobs.worker(queue, [definition]);
    const id = await queue.enqueue(definition, null);
    await jobs.untilState(queue, id, ["dead"]);
    healthy = true;
    expect((await queue.retry(id)).attempts).toBe(0);
    expect(await jobs.untilState(queue, id, ["succeeded", "dead"])).toMatchObject({ state: "succeeded", attempts: 1 });
  });

  it("cancels a queued job at once", async () => {
    const queue = jobs.queue();
    const ran = new Set<string>();
    const definition: JobDefinition<null> = {
      name: uniqueName("cancel-queued"),
      async run(_payload, context) {
        ran.add(context.jobId);
      },
    };
    const id = await queue.enqueue(definition, null);
    const cancelled = await queue.cancel(id);
    expect(cancelled).toMatchObject({ state: "cancelled" });
    expect(cancelled.finishedAt).not.toBeNull();
    const worker = jobs.worker(queue, [definition]);
    // A job enqueued after the cancel runs: the worker did look, and still skipped the cancelled one.
    const later = await queue.enqueue(definition, null);
    await jobs.untilState(queue, later, ["succeeded"]);
    expect(worker.runningJobs).toBe(0);
    expect((await queue.get(id)).state).toBe("cancelled");
    expect([...ran]).toEqual([later]);
  });

  it("aborts a running job's signal on cancel (in-process and from another process) and ends it cancelled", async () => {
    const queue = jobs.queue();
    const started = new Set<string>();
    const reasons: unknown[] = [];
    const definition: JobDefinition<null> = {
      name: uniqueName("cancel-running"),
      async run(_payload, context) {
        started.add(context.jobId);
        const reason = await aborted(context.signal);
        reasons.push(reason);
        throw reason;
      },
    };
    // Renewals every 300 ms carry a cancel from another process sooner.
    jobs.worker(queue, [definition], { leaseMs: 900 });
    // Another process: a queue of its own that this worker does not listen to; the heartbeat carries the cancel.
    const otherProcess = jobs.queue();
    for (const canceller of [queue, otherProcess]) {
      const id = await queue.enqueue(definition, null);
      await eventually(
        async () => started.has(id),
        (running) => running,
      );
      expect((await canceller.cancel(id)).cancelRequested).toBe(true);
      expect(await jobs.untilState(queue, id, ["cancelled", "succeeded", "dead", "queued"])).toMatchObject({
        state: "cancelled",
        attempts: 1,
      });
    }
    expect(reasons).toHaveLength(2);
    expect(reasons.every((reason) => reason instanceof JobAbortedError && reason.abortCause === "cancelled")).toBe(
      true,
    );
  });

  it("does not enqueue the same name and dedupe key twice while one is queued or running", async () => {
    const queue = jobs.queue();
    const definition: JobDefinition<{ storyId: string }> = { name: uniqueName("dedupe"), async run() {} };
    const first = await queue.enqueue(definition, { storyId: "a" }, { dedupeKey: "story:a" });
    expect(await queue.enqueue(definition, { storyId: "a" }, { dedupeKey: "story:a" })).toBe(first);
    const other = await queue.enqueue(definition, { storyId: "b" }, { dedupeKey: "story:b" });
    expect(other).not.toBe(first);
    const withoutKey = [
      await queue.enqueue(definition, { storyId: "a" }),
      await queue.enqueue(definition, { storyId: "a" }),
    ];
    expect(new Set(withoutKey).size).toBe(2);
    jobs.worker(queue, [definition]);
    await jobs.untilState(queue, first, ["succeeded"]);
    const again = await queue.enqueue(definition, { storyId: "a" }, { dedupeKey: "story:a" });
    expect(again).not.toBe(first);
  });

  it("enqueues inside a transaction: no job when it rolls back, a job when it commits", async () => {
    const queue = jobs.queue();
    const definition: JobDefinition<null> = { name: uniqueName("transactional"), async run() {} };
    let rolledBackId: string | undefined;
    await expect(
      db()
        .kysely.transaction()
        .execute(async (transaction) => {
          rolledBackId = await queue.enqueue(definition, null, { transaction });
          throw new Error("the story insert failed");
        }),
    ).rejects.toThrow("the story insert failed");
    expect(rolledBackId).toBeDefined();
    await expect(queue.get(rolledBackId!)).rejects.toMatchObject({ status: 404 });
    expect((await queue.list({ name: definition.name, page: 0, size: 10 })).total).toBe(0);

    const committedId = await db()
      .kysely.transaction()
      .execute((transaction) => queue.enqueue(definition, null, { transaction }));
    expect((await queue.get(committedId)).state).toBe("queued");
  });

  it("records progress while a job runs, throttled to one write per interval", async () => {
    const queue = jobs.queue();
    const release = gate();
    const reported = gate();
    const definition: JobDefinition<null> = {
      name: uniqueName("progress"),
      async run(_payload, context: JobContext) {
        await context.progress(40);
        // Within the throttle interval: kept for later, not written now.
        await context.progress(60);
        reported.open();
        await release.promise;
      },
    };
    jobs.worker(queue, [definition], { progressIntervalMs: 600_000 });
    const id = await queue.enqueue(definition, null);
    await reported.promise;
    expect(await queue.get(id)).toMatchObject({ state: "running", progress: 40 });
    release.open();
    expect(await jobs.untilState(queue, id, ["succeeded", "dead"])).toMatchObject({
      state: "succeeded",
      progress: 100,
    });
  });

  it("aborts a job that passes its timeout and counts it as a failed attempt", async () => {
    const queue = jobs.queue();
    const reasons: unknown[] = [];
    const definition: JobDefinition<null> = {
      name: uniqueName("timeout"),
      maxAttempts: 3,
      timeoutMs: 150,
      async run(_payload, context) {
        if (context.attempt === 1) {
          reasons.push(await aborted(context.signal));
          throw new Error("ffmpeg was killed");
        }
        // The second attempt returns normally once aborted: too late, it still counts as failed.
        if (context.attempt === 2) return void (await aborted(context.signal));
        // The third ignores its signal: it is abandoned after the grace period.
        await new Promise(() => {});
      },
    };
    jobs.worker(queue, [definition]);
    const id = await queue.enqueue(definition, null);
    const job = await jobs.untilState(queue, id, ["succeeded", "dead"]);
    expect(job).toMatchObject({ state: "dead", attempts: 3, lastError: "timed out after 150 ms" });
    expect(reasons).toHaveLength(1);
    expect((reasons[0] as JobAbortedError).abortCause).toBe("timeout");
  });

  it("runs again a job whose worker vanished once its lease expires", async () => {
    const queue = jobs.queue();
    const definition: JobDefinition<null> = { name: uniqueName("reclaimed"), async run() {} };
    const id = await queue.enqueue(definition, null);
    // A worker that claims (with a short lease) and then never renews nor reports, as if it crashed.
    const [claimed] = await jobs.queue({ leaseMs: 500 }).claim([definition.name], 1, "vanished-worker");
    expect(claimed?.job).toMatchObject({ id, state: "running", attempts: 1 });
    jobs.worker(queue, [definition]);
    expect(await jobs.untilState(queue, id, ["succeeded", "dead"])).toMatchObject({ state: "succeeded", attempts: 2 });
    // The vanished worker's late report is fenced off by its lost lease.
    expect(await queue.succeed(claimed!.lease)).toBeUndefined();
  });

  it("renews the lease while a job runs, and aborts the job without writing its outcome once the lease is taken", async () => {
    const queue = jobs.queue();
    const started = gate();
    const reasons: unknown[] = [];
    const definition: JobDefinition<null> = {
      name: uniqueName("renewed"),
      async run(_payload, context) {
        started.open();
        reasons.push(await aborted(context.signal));
      },
    };
    // Renewals every 300 ms of a 10 s lease.
    jobs.worker(queue, [definition], { leaseMs: 900 });
    const id = await queue.enqueue(definition, null);
    await started.promise;
    const first = await queue.get(id);
    await eventually(
      () => queue.get(id),
      (job) => job.leaseExpiresAt! > first.leaseExpiresAt!,
    );
    // Another worker has the job now (as after an expiry): this one's next renewal finds out.
    await db().kysely.updateTable("jobs").set({ lease_owner: "another-worker/lease" }).where("id", "=", id).execute();
    await eventually(
      async () => reasons.length,
      (count) => count === 1,
    );
    expect((reasons[0] as JobAbortedError).abortCause).toBe("lease-lost");
    expect(await queue.get(id)).toMatchObject({ state: "running", leaseOwner: "another-worker/lease", attempts: 1 });
  });

  it("sends a vanished job to dead when it had no attempts left", async () => {
    const queue = jobs.queue();
    const definition: JobDefinition<null> = { name: uniqueName("vanished-last"), maxAttempts: 1, async run() {} };
    const id = await queue.enqueue(definition, null);
    await jobs.queue({ leaseMs: 500 }).claim([definition.name], 1, "vanished-worker");
    jobs.worker(queue, [definition]);
    expect(await jobs.untilState(queue, id, ["succeeded", "dead"])).toMatchObject({
      state: "dead",
      attempts: 1,
      lastError: LOST_WORKER_REASON,
    });
  });

  it("on stop, waits for running jobs up to a limit, then releases their leases without counting the attempt", async () => {
    const queue = jobs.queue();
    const running = gate();
    const definition: JobDefinition<null> = {
      name: uniqueName("stop"),
      async run() {
        running.open();
        await new Promise(() => {});
      },
    };
    const worker = jobs.worker(queue, [definition], { stopTimeoutMs: 100 });
    const id = await queue.enqueue(definition, null);
    await running.promise;
    await worker.stop();
    expect(await queue.get(id)).toMatchObject({ state: "queued", attempts: 0, leaseOwner: null });
  });
});
