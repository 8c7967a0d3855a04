import { randomUUID } from "node:crypto";
import { beforeAll, expect, it } from "vitest";
import { API_PREFIX } from "../../http/error-handler.js";
import { describeEachDialect, useTestApp } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import type { JobDefinition } from "./job-types.js";

const JOBS = `${API_PREFIX}/jobs`;

// Never registered on a worker here, so its jobs stay where the test puts them.
const thumbnails: JobDefinition<{ storyId: string }> = { name: "test.api.thumbnails", async run() {} };
const transcode: JobDefinition<{ storyId: string }> = { name: "test.api.transcode", async run() {} };

describeEachDialect("jobs API", (dialect) => {
  const ctx = useTestApp(dialect);
  let admin: TestPrincipal;
  let editor: TestPrincipal;
  let contributor: TestPrincipal;

  beforeAll(async () => {
    admin = await createPrincipal(ctx().db, { username: "jobs-admin", roleId: "administrator", admin: true });
    editor = await createPrincipal(ctx().db, { username: "jobs-editor", roleId: "editor" });
    contributor = await createPrincipal(ctx().db, { username: "jobs-contributor", roleId: "contributor" });
  });

  function call(method: "GET" | "POST", url: string, principal: TestPrincipal) {
    return ctx().app.inject({ method, url, headers: principal.headers });
  }

  it("lists jobs newest first, filtered by state and name, in pages", async () => {
    const queue = ctx().app.jobs.queue;
    const ids: string[] = [];
    for (let index = 0; index < 3; index++) ids.push(await queue.enqueue(thumbnails, { storyId: `s-${index}` }));
    const transcodeId = await queue.enqueue(transcode, { storyId: "s-9" });
    await queue.cancel(ids[0]!);

    const firstPage = await call("GET", `${JOBS}?name=${thumbnails.name}&size=2&page=0`, admin);
    expect(firstPage.statusCode).toBe(200);
    const body = firstPage.json();
    expect(body).toMatchObject({ code: 0, data: { totalElements: 3, size: 2, number: 0 } });
    expect(body.data.content).toHaveLength(2);
    expect(body.data.content[0]).toMatchObject({ name: thumbnails.name, state: expect.any(String), progress: 0 });
    const secondPage = (await call("GET", `${JOBS}?name=${thumbnails.name}&size=2&page=1`, admin)).json();
    const listed = [...body.data.content, ...secondPage.data.content].map((job: { id: string }) => job.id);
    expect(listed.sort()).toEqual([...ids].sort());

    const queued = (await call("GET", `${JOBS}?state=queued&name=${thumbnails.name}`, admin)).json();
    expect(queued.data.content.map((job: { id: string }) => job.id).sort()).toEqual([ids[1], ids[2]].sort());
    const cancelled = (await call("GET", `${JOBS}?state=cancelled`, admin)).json();
    expect(cancelled.data.content.map((job: { id: string }) => job.id)).toEqual([ids[0]]);
    const all = (await call("GET", JOBS, admin)).json();
    expect(all.data.content.map((job: { id: string }) => job.id)).toContain(transcodeId);

    const byKeyword = (await call("GET", `${JOBS}?keyword=API.TRANS`, admin)).json();
    expect(byKeyword.data.content.map((job: { id: string }) => job.id)).toEqual([transcodeId]);
    expect((await call("GET", `${JOBS}?state=exploded`, admin)).statusCode).toBe(400);
  });

  it("gets one job, and 404 for an unknown id", async () => {
    const id = await ctx().app.jobs.queue.enqueue(thumbnails, { storyId: "s-get" });
    const response = await call("GET", `${JOBS}/${id}`, editor);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({
      id,
      name: thumbnails.name,
      payload: { storyId: "s-get" },
      state: "queued",
      attempts: 0,
      maxAttempts: 5,
      lastError: null,
      cancelRequested: false,
    });
    const missing = await call("GET", `${JOBS}/${randomUUID()}`, admin);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: "job_not_found" });
    expect((await call("GET", `${JOBS}/not-a-uuid`, admin)).statusCode).toBe(400);
  });

  it("cancels a queued job, retries the cancelled one, and refuses what does not apply", async () => {
    const id = await ctx().app.jobs.queue.enqueue(thumbnails, { storyId: "s-cancel" });
    const refusedRetry = await call("POST", `${JOBS}/${id}/retry`, admin);
    expect(refusedRetry.statusCode).toBe(409);
    expect(refusedRetry.json()).toMatchObject({ error: "job_not_retryable" });

    const cancelled = await call("POST", `${JOBS}/${id}/cancel`, admin);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().data).toMatchObject({ id, state: "cancelled" });
    // Cancelling twice is harmless.
    expect((await call("POST", `${JOBS}/${id}/cancel`, admin)).json().data.state).toBe("cancelled");

    const retried = await call("POST", `${JOBS}/${id}/retry`, admin);
    expect(retried.statusCode).toBe(200);
    expect(retried.json().data).toMatchObject({ id, state: "queued", attempts: 0, finishedAt: null });
    expect((await call("POST", `${JOBS}/${randomUUID()}/cancel`, admin)).statusCode).toBe(404);
  });

  it("refuses to cancel or retry a succeeded job", async () => {
    const queue = ctx().app.jobs.queue;
    const finished: JobDefinition<{ storyId: string }> = { name: "test.api.finished", async run() {} };
    const id = await queue.enqueue(finished, { storyId: "s-done" });
    const [claimed] = await queue.claim([finished.name], 1, "api-test-worker");
    expect(claimed?.job.id).toBe(id);
    expect(await queue.succeed(claimed!.lease)).toBe("succeeded");
    const cancel = await call("POST", `${JOBS}/${id}/cancel`, admin);
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json()).toMatchObject({ error: "job_not_cancellable" });
    expect((await call("POST", `${JOBS}/${id}/retry`, admin)).json()).toMatchObject({ error: "job_not_retryable" });
    expect((await call("GET", `${JOBS}/${id}`, admin)).json().data).toMatchObject({
      state: "succeeded",
      progress: 100,
    });
  });

  it("refuses to retry a job when an identical one (same dedupe key) is already queued", async () => {
    const queue = ctx().app.jobs.queue;
    const first = await queue.enqueue(thumbnails, { storyId: "s-dup" }, { dedupeKey: "story:s-dup" });
    await queue.cancel(first);
    const second = await queue.enqueue(thumbnails, { storyId: "s-dup" }, { dedupeKey: "story:s-dup" });
    expect(second).not.toBe(first);
    const refused = await call("POST", `${JOBS}/${first}/retry`, admin);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: "job_duplicate" });
  });

  it("needs manage.monitor.task: query to read, update to retry or cancel", async () => {
    const id = await ctx().app.jobs.queue.enqueue(thumbnails, { storyId: "s-access" });
    // The editor role reads the back area's monitors but changes nothing there.
    expect((await call("GET", JOBS, editor)).statusCode).toBe(200);
    expect((await call("POST", `${JOBS}/${id}/cancel`, editor)).statusCode).toBe(403);
    expect((await call("POST", `${JOBS}/${id}/retry`, editor)).statusCode).toBe(403);
    const viewer = await createPrincipal(ctx().db, { username: "jobs-viewer", roleId: "viewer" });
    expect((await call("GET", JOBS, viewer)).statusCode).toBe(403);
    // The administrator role without the users.admin flag: its permissions alone let it change jobs.
    const operator = await createPrincipal(ctx().db, { username: "jobs-operator", roleId: "administrator" });
    const cancelled = await call("POST", `${JOBS}/${id}/cancel`, operator);
    expect(cancelled.statusCode).toBe(200);
    expect((await call("POST", `${JOBS}/${id}/retry`, operator)).json().data.state).toBe("queued");
    expect((await call("GET", JOBS, contributor)).statusCode).toBe(403);
    expect((await call("GET", `${JOBS}/${id}`, contributor)).statusCode).toBe(403);
    expect((await ctx().app.inject({ method: "GET", url: JOBS })).statusCode).toBe(401);
    expect((await ctx().app.jobs.queue.get(id)).state).toBe("queued");
  });

  it("exports job counts by state on /metrics", async () => {
    const queue = ctx().app.jobs.queue;
    const counts = await queue.countByState();
    const reader = await createPrincipal(ctx().db, { username: "jobs-metrics-reader", roleId: "administrator" });
    const response = await ctx().app.inject({ method: "GET", url: "/metrics", headers: reader.headers });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(`dams_jobs{state="queued"} ${counts.queued ?? 0}`);
    expect(response.body).toContain(`dams_jobs{state="cancelled"} ${counts.cancelled ?? 0}`);
    expect(counts.queued).toBeGreaterThan(0);
    expect(response.body).toContain("dams_jobs_running_here 0");
  });
});
