import { beforeAll, expect, it } from "vitest";
import { API_PREFIX } from "../../http/error-handler.js";
import { describeEachDialect, useTestApp } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import type { JobDefinition } from "./job-types.js";
import { JobsMonitor, WORKER_LOST_AFTER_MS } from "./jobs-monitor.js";
import { JobsMonitorRepository } from "./jobs-monitor.repository.js";

const JOBS = `${API_PREFIX}/jobs`;

// Never registered on a worker, so their jobs stay where the test puts them.
const resize: JobDefinition<{ n: number }> = { name: "test.monitor.resize", async run() {} };
const render: JobDefinition<{ n: number }> = { name: "test.monitor.render", async run() {} };

describeEachDialect("task monitor API", (dialect) => {
  const ctx = useTestApp(dialect);
  let admin: TestPrincipal;
  let contributor: TestPrincipal;

  beforeAll(async () => {
    admin = await createPrincipal(ctx().db, { username: "monitor-admin", roleId: "administrator", admin: true });
    contributor = await createPrincipal(ctx().db, { username: "monitor-contributor", roleId: "contributor" });
  });

  function get(url: string, principal: TestPrincipal) {
    return ctx().app.inject({ method: "GET", url, headers: principal.headers });
  }

  it("counts jobs by state and by name, exactly", async () => {
    const queue = ctx().app.jobs.queue;
    const resizes: string[] = [];
    for (let n = 0; n < 5; n++) resizes.push(await queue.enqueue(resize, { n }));
    for (let n = 0; n < 2; n++) await queue.enqueue(render, { n });
    await queue.cancel(resizes[0]!);
    await queue.cancel(resizes[1]!);
    const [running] = await queue.claim([render.name], 1, "monitor-test-worker");
    expect(running).toBeDefined();
    const dead: JobDefinition<{ n: number }> = { name: resize.name, maxAttempts: 1, async run() {} };
    const deadId = await queue.enqueue(dead, { n: 99 });
    const claimed = await queue.claim([resize.name], 5, "monitor-test-worker");
    const toKill = claimed.find((job) => job.job.id === deadId)!;
    expect(await queue.fail(toKill, new Error("ffmpeg exited with code 1"))).toBe("dead");
    for (const other of claimed.filter((job) => job.job.id !== deadId)) await queue.release(other.lease);

    const response = await get(`${JOBS}/summary`, admin);
    expect(response.statusCode).toBe(200);
    const summary = response.json().data;
    const byName = Object.fromEntries(
      summary.byName.map((row: { name: string; counts: object; total: number }) => [row.name, row]),
    );
    expect(byName[resize.name]).toEqual({
      name: resize.name,
      counts: { queued: 3, running: 0, succeeded: 0, dead: 1, cancelled: 2 },
      total: 6,
    });
    expect(byName[render.name]).toEqual({
      name: render.name,
      counts: { queued: 1, running: 1, succeeded: 0, dead: 0, cancelled: 0 },
      total: 2,
    });
    // The totals by state are the sums over the names.
    for (const state of ["queued", "running", "succeeded", "dead", "cancelled"] as const) {
      const sum = summary.byName.reduce(
        (total: number, row: { counts: Record<string, number> }) => total + row.counts[state]!,
        0,
      );
      expect(summary.byState[state]).toBe(sum);
    }
    const deadJobs = (await get(`${JOBS}?state=dead&name=${resize.name}`, admin)).json().data.content;
    expect(deadJobs).toEqual([expect.objectContaining({ id: deadId, lastError: "ffmpeg exited with code 1" })]);
  });

  it("lists workers by their heartbeats: running, stopped, and lost when silent", async () => {
    const repository = new JobsMonitorRepository(ctx().db);
    const start = Date.parse("2026-11-20T10:00:00.000Z");
    let now = start;
    const monitor = new JobsMonitor(repository, () => now);
    const startedAt = new Date(start).toISOString();
    await monitor.beat({ id: "host-a:1:aaaaaa", concurrency: 2, running: 1, startedAt });
    await monitor.beat({ id: "host-b:2:bbbbbb", concurrency: 1, running: 0, startedAt });
    await monitor.beat({ id: "host-c:3:cccccc", concurrency: 4, running: 0, startedAt });
    await monitor.stopped("host-c:3:cccccc");
    now += WORKER_LOST_AFTER_MS + 1;
    await monitor.beat({ id: "host-a:1:aaaaaa", concurrency: 2, running: 2, startedAt });
    const ours = <T extends { id: string }>(rows: T[]) => rows.filter((row) => row.id.startsWith("host-"));
    const workers = ours(await monitor.workers());
    expect(workers.map((worker) => [worker.id, worker.status, worker.running])).toEqual([
      ["host-a:1:aaaaaa", "running", 2],
      ["host-b:2:bbbbbb", "lost", 0],
      ["host-c:3:cccccc", "stopped", 0],
    ]);
    expect(workers[0]).toMatchObject({ concurrency: 2, startedAt, lastSeenAt: new Date(now).toISOString() });
    // A day later, the silent ones are forgotten.
    now += 24 * 60 * 60 * 1000 - 1000;
    await monitor.beat({ id: "host-a:1:aaaaaa", concurrency: 2, running: 0, startedAt });
    expect(ours(await monitor.workers()).map((worker) => worker.id)).toEqual(["host-a:1:aaaaaa"]);
  });

  it("shows a started worker through the API, then stopped", async () => {
    const worker = ctx().app.jobs.worker;
    const wasStarted = worker.started;
    if (!wasStarted) worker.start();
    const seen = async () =>
      ((await get(`${JOBS}/workers`, admin)).json().data as { id: string; status: string }[]).find(
        (row) => row.id === worker.id,
      );
    await expect.poll(seen, { timeout: 20_000 }).toMatchObject({ status: "running" });
    if (!wasStarted) {
      await worker.stop();
      expect(await seen()).toMatchObject({ status: "stopped" });
    }
  });

  it("needs manage.monitor.task: query", async () => {
    expect((await get(`${JOBS}/summary`, contributor)).statusCode).toBe(403);
    expect((await get(`${JOBS}/workers`, contributor)).statusCode).toBe(403);
    expect((await ctx().app.inject({ method: "GET", url: `${JOBS}/summary` })).statusCode).toBe(401);
  });
});
