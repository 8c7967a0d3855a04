import { Readable } from "node:stream";
import { beforeAll, expect, it } from "vitest";
import { describeEachDialect } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { api, sha256, useStoriesApp } from "../../test/stories-app.js";
import { newOriginalKey } from "../blobs/blob-keys.js";
import type { BlobStore } from "../blobs/blob-store.js";
import { BlobsRepository } from "../blobs/blobs.repository.js";
import { BlobsService } from "../blobs/blobs.service.js";
import { JobAbortedError, type JobContext } from "../jobs/job-types.js";
import { integrityCheckJob } from "./integrity-check.job.js";
import { IntegrityCheckRepository, queuedCheck } from "./integrity-check.repository.js";
import type { CheckView } from "./integrity-check.service.js";

describeEachDialect("storage integrity check", (dialect) => {
  const ctx = useStoriesApp(dialect, { env: { DAMS_JOBS_POLL_MS: "50" } });
  const call = api(ctx);
  let admin: TestPrincipal;
  let editor: TestPrincipal;
  let contributor: TestPrincipal;
  const stored = new Map<string, Buffer>();
  let changedKey = "";
  let missingKey = "";

  const registry = () => new BlobsService(new BlobsRepository(ctx().db));
  const keyAt = (index: number): string => {
    const key = [...stored.keys()].sort()[index];
    if (key === undefined) throw new Error(`no blob at ${index}`);
    return key;
  };
  const bytesOf = (key: string): Buffer => {
    const bytes = stored.get(key);
    if (!bytes) throw new Error(`no blob ${key}`);
    return bytes;
  };
  /** The changed blob's bytes as they are on disk: one byte flipped, the size kept. */
  const flippedBytes = (): Buffer => {
    const flipped = Buffer.from(bytesOf(changedKey));
    flipped[10] = (flipped[10] ?? 0) ^ 0xff;
    return flipped;
  };

  beforeAll(async () => {
    admin = await createPrincipal(ctx().db, { username: "check-admin", roleId: "administrator", admin: true });
    editor = await createPrincipal(ctx().db, { username: "check-editor", roleId: "editor" });
    contributor = await createPrincipal(ctx().db, { username: "check-contributor", roleId: "contributor" });
    // Twelve registered originals of different sizes, Chinese names among them.
    for (let index = 0; index < 12; index++) {
      const key = newOriginalKey();
      const bytes = Buffer.from(`原图 ${index} `.repeat(100 + index * 37));
      await ctx().blobs.put(key, Readable.from([bytes]));
      await registry().register({
        key,
        sha256: sha256(bytes),
        size: bytes.length,
        mime: "image/jpeg",
        kind: "photo",
        original_name: `台风-${index}.jpg`,
        created_by: admin.id,
        created_at: new Date().toISOString(),
      });
      stored.set(key, bytes);
    }
    // One changed on disk behind the registry's back (same size, one byte flipped), one gone.
    changedKey = keyAt(3);
    await ctx().blobs.put(changedKey, Readable.from([flippedBytes()]));
    missingKey = keyAt(8);
    await ctx().blobs.delete(missingKey);
  });

  const waitFor = async (id: string, state: string): Promise<CheckView> => {
    const check = async () => (await call(admin, "GET", `/storage/integrity-checks/${id}`)).json().data as CheckView;
    await expect.poll(async () => (await check()).state, { timeout: 120_000, interval: 100 }).toBe(state);
    return check();
  };

  it("is started by those who may add on the storage monitor, read by its readers", async () => {
    // Editors read the monitors; starting a check is more than reading.
    expect((await call(editor, "POST", "/storage/integrity-checks")).statusCode).toBe(403);
    expect((await call(editor, "GET", "/storage/integrity-checks/latest")).statusCode).toBe(200);
    expect((await call(contributor, "GET", "/storage/integrity-checks/latest")).statusCode).toBe(403);
    const latest = await call(admin, "GET", "/storage/integrity-checks/latest");
    expect(latest.statusCode).toBe(200);
    expect(latest.json().data).toBeNull();
  });

  it("runs one check at a time; a queued check can be cancelled, an ended one not", async () => {
    const first = await call(admin, "POST", "/storage/integrity-checks");
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toMatchObject({ state: "queued", checkedFiles: 0 });
    const second = await call(admin, "POST", "/storage/integrity-checks");
    expect(second.statusCode).toBe(409);
    expect(second.json().error).toBe("check_in_progress");
    const cancelled = await call(admin, "POST", `/storage/integrity-checks/${first.json().data.id}/cancel`);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().data.state).toBe("cancelled");
    const again = await call(admin, "POST", `/storage/integrity-checks/${first.json().data.id}/cancel`);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe("check_ended");
    expect((await call(admin, "GET", `/storage/integrity-checks/${crypto.randomUUID()}`)).statusCode).toBe(404);
  });

  it("reads every registered blob back: the changed one and the missing one are named, the rest counted", async () => {
    const started = await call(admin, "POST", "/storage/integrity-checks");
    expect(started.statusCode, started.body).toBe(200);
    const id = started.json().data.id as string;
    ctx().app.jobs.worker.start();
    const done = await waitFor(id, "succeeded");
    const intact = [...stored].filter(([key]) => key !== changedKey && key !== missingKey);
    expect(done).toMatchObject({
      totalFiles: 12,
      checkedFiles: 12,
      missing: 1,
      mismatched: 1,
      unreadable: 0,
      checkedBytes: intact.reduce((sum, [, bytes]) => sum + bytes.length, 0),
    });
    const latest = (await call(admin, "GET", "/storage/integrity-checks/latest")).json().data;
    expect(latest.id).toBe(id);

    const page = await call(admin, "GET", `/storage/integrity-checks/${id}/problems?limit=1`);
    expect(page.statusCode, page.body).toBe(200);
    const first = page.json().data;
    expect(first.problems).toHaveLength(1);
    expect(first.next).toBe(first.problems[0].key);
    const rest = (
      await call(admin, "GET", `/storage/integrity-checks/${id}/problems?after=${encodeURIComponent(first.next)}`)
    ).json().data;
    expect(rest.next).toBeNull();
    const problems = [...first.problems, ...rest.problems];
    expect(problems).toEqual([
      expect.objectContaining({
        key: changedKey,
        kind: "mismatched",
        expectedSha256: sha256(bytesOf(changedKey)),
        actualSha256: sha256(flippedBytes()),
        expectedSize: bytesOf(changedKey).length,
        actualSize: bytesOf(changedKey).length,
      }),
      expect.objectContaining({ key: missingKey, kind: "missing", actualSha256: null, actualSize: null }),
    ]);
    const log = await ctx()
      .db.kysely.selectFrom("audit_log")
      .select("action")
      .where("action", "like", "storage.integrity-check%")
      .execute();
    expect(log.map((row) => row.action).sort()).toEqual([
      "storage.integrity-check",
      "storage.integrity-check",
      "storage.integrity-check.cancel",
    ]);
  });

  it("goes on after an interrupted attempt from the last key saved, counting nothing twice", async () => {
    const rows = new IntegrityCheckRepository(ctx().db.kysely);
    const id = crypto.randomUUID();
    const now = new Date().toISOString();
    await rows.insert(queuedCheck(id, admin.id, now));
    // The first attempt is stopped (a worker shutting down) as it reaches the ninth blob.
    const controller = new AbortController();
    let stats = 0;
    const local = ctx().blobs;
    const store = {
      stat: async (key: string) => {
        if (++stats === 9) controller.abort(new JobAbortedError("shutdown"));
        return local.stat(key);
      },
      get: (key: string) => local.get(key),
    } as unknown as BlobStore;
    const job = integrityCheckJob({ rows, store, registry });
    const context = (signal: AbortSignal, attempt: number): JobContext => ({
      jobId: `job-${attempt}`,
      attempt,
      signal,
      progress: async () => {},
    });
    await expect(job.run({ checkId: id }, context(controller.signal, 1))).rejects.toThrow("shutdown");
    const stopped = await rows.find(id);
    expect(stopped).toMatchObject({ state: "queued", checkedFiles: 9 });
    expect(stopped?.cursor).toBe(keyAt(8));

    expect(await job.run({ checkId: id }, context(new AbortController().signal, 2))).toEqual({
      outcome: "succeeded",
    });
    expect(await rows.find(id)).toMatchObject({
      state: "succeeded",
      checkedFiles: 12,
      missing: 1,
      mismatched: 1,
      unreadable: 0,
    });
    expect(await rows.problems(id, null, 100)).toHaveLength(2);
  });
});
