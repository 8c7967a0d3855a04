import { expect, it } from "vitest";
import { describeEachDialect, useTestDb } from "../../test/dialects.js";
import { jobSucceeded } from "./job-types.js";
import { buildJobs, type Jobs } from "./jobs.compose.js";
import { FAST_JOBS } from "./test-support/jobs-harness.js";

/** Never called: what the type checker refuses (`npm run typecheck` fails when these compile). */
export function refusedByTheTypeChecker(jobs: Jobs): void {
  // @ts-expect-error a job name that is not in job-names.ts
  void jobs.enqueue("stories.porcess", { ids: [] });
  // @ts-expect-error the payload of another job
  void jobs.enqueue("stories.process", { fetchId: "f-1" });
  // @ts-expect-error a handler must say how the attempt ended
  jobs.register({ name: "maintenance", async run() {} });
}

describeEachDialect("jobs by name", (dialect) => {
  const db = useTestDb(dialect);

  it("enqueues by name with the registered handler's attempts, and refuses a name nobody registered", async () => {
    const jobs = buildJobs(db(), FAST_JOBS);
    jobs.register({ name: "maintenance", maxAttempts: 2, run: async () => jobSucceeded });
    const id = await jobs.enqueue("maintenance", {}, { dedupeKey: "by-name" });
    expect(await jobs.queue.get(id)).toMatchObject({ name: "maintenance", maxAttempts: 2, state: "queued" });
    await expect(jobs.enqueue("stories.process", { ids: [] })).rejects.toThrow(
      "no handler is registered for job stories.process",
    );
    expect(() => jobs.register({ name: "maintenance", run: async () => jobSucceeded })).toThrow("registered twice");
  });
});
