import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { API_PREFIX } from "../../http/error-handler.js";
import { describeEachDialect, useTestDb } from "../../test/dialects.js";
import { eventually } from "../../test/eventually.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { CORPUS, type RunningApp, startApp, temporaryDataDir, tusUpload } from "../uploads/uploads.test-support.js";

const canon = fs.readFileSync(path.join(CORPUS, "jpg/Canon_40D.jpg"));
/** Short leases and polls: a lost worker's job is noticed within a second. */
const FAST = { DAMS_JOBS_LEASE_MS: "400", DAMS_JOBS_POLL_MS: "50", DAMS_JOBS_BACKOFF_MS: "10" };

/**
 * Issue 14 item 5: a story must not stay "processing: running" for ever
 * after its job went dead. Through the real app: tus uploads make stories and
 * their "stories.process" jobs; the app's own worker and start-up do the rest.
 */
describeEachDialect("a processing job's end reaches its story", (dialect) => {
  const db = useTestDb(dialect);
  const dataDir = temporaryDataDir();
  let running: RunningApp | undefined;
  let alice: TestPrincipal;

  beforeAll(async () => {
    alice = await createPrincipal(db(), { username: "alice", roleId: "editor" });
  });
  afterEach(async () => {
    await running?.app.close();
    running = undefined;
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  /** A new photo story (distinct bytes each time) with its processing job queued; no worker runs yet. */
  const libraries = new Map<string, string>();
  async function uploadedStory(base: string, tag: string): Promise<string> {
    const bytes = Buffer.concat([canon, Buffer.from(`${dialect}-${tag}`)]);
    const done = await tusUpload(base, alice.token, bytes, { metadata: { filename: `${tag}.jpg` } });
    const { storyId, libraryId } = done.body.data.result as { storyId: string; libraryId: string };
    libraries.set(storyId, libraryId);
    return storyId;
  }

  async function story(storyId: string) {
    return db()
      .kysely.selectFrom("stories")
      .select(["processing_state", "processing_error"])
      .where("id", "=", storyId)
      .executeTakeFirstOrThrow();
  }

  async function jobOf(storyId: string) {
    return db()
      .kysely.selectFrom("jobs")
      .selectAll()
      .where("story_id", "=", storyId)
      .where("name", "=", "stories.process")
      .orderBy("created_at", "desc")
      .executeTakeFirstOrThrow();
  }

  it("a job whose worker is lost on every attempt goes dead, and its story shows processing failed with why", async () => {
    running = await startApp(db(), dataDir, FAST);
    const { jobs } = running.app;
    const storyId = await uploadedStory(running.base, "lost-every-time");
    const job = await jobOf(storyId);
    expect(job.state).toBe("queued");
    // Each attempt is taken by a worker that dies at once (it never writes anything again): the claim a
    // killed process leaves, its lease running out. The processor had said "running" on the first one.
    for (let attempt = 1; attempt <= job.max_attempts; attempt++) {
      const [claimed] = await eventually(
        () => jobs.queue.claim(["stories.process"], 1, `doomed-${attempt}`),
        (taken) => taken.length === 1,
      );
      expect(claimed!.job).toMatchObject({ id: job.id, attempts: attempt });
      if (attempt === 1)
        await db()
          .kysely.updateTable("stories")
          .set({ processing_state: "running" })
          .where("id", "=", storyId)
          .execute();
    }
    // A live worker notices the last lease ran out: the job is dead, and the story is told.
    jobs.worker.start();
    const settled = await eventually(
      () => story(storyId),
      (row) => row.processing_state !== "running",
    );
    expect((await jobOf(storyId)).state).toBe("dead");
    expect(settled.processing_state).toBe("failed");
    expect(settled.processing_error).toContain("the worker running the last attempt was lost");

    // Failed is not final: a re-transcode queues the job again and, with a live worker, finishes it.
    const retried = await fetch(`${running.base}${API_PREFIX}/upload-files/re-transcode`, {
      method: "POST",
      headers: { authorization: `Bearer ${alice.token}`, "content-type": "application/json" },
      body: JSON.stringify({ libraryId: libraries.get(storyId), storyId }),
    });
    expect(retried.status).toBe(200);
    expect(
      (
        await eventually(
          () => story(storyId),
          (row) => row.processing_state === "done",
          { limitMs: 60_000 },
        )
      ).processing_error,
    ).toBeNull();
  });

  it("at start-up, stories left queued or running with a dead, cancelled or missing job show failed; live ones stay", async () => {
    running = await startApp(db(), dataDir);
    const dead = await uploadedStory(running.base, "dead-job");
    const gone = await uploadedStory(running.base, "gone-job");
    const cancelled = await uploadedStory(running.base, "cancelled-job");
    const live = await uploadedStory(running.base, "live-job");
    await running.app.close();
    running = undefined;
    // What a crash left: the processor said running, then its job died without telling the story (the
    // process went away between the two), another job's row is gone, another was cancelled.
    const kysely = db().kysely;
    for (const id of [dead, gone, cancelled])
      await kysely.updateTable("stories").set({ processing_state: "running" }).where("id", "=", id).execute();
    await kysely
      .updateTable("jobs")
      .set({ state: "dead", last_error: "ffmpeg was killed (SIGKILL)" })
      .where("story_id", "=", dead)
      .execute();
    await kysely.deleteFrom("jobs").where("story_id", "=", gone).execute();
    await kysely.updateTable("jobs").set({ state: "cancelled" }).where("story_id", "=", cancelled).execute();

    running = await startApp(db(), dataDir);
    const repaired = await eventually(
      () => Promise.all([dead, gone, cancelled].map(story)),
      (rows) => rows.every((row) => row.processing_state === "failed"),
    );
    expect(repaired.map((row) => row.processing_error)).toEqual([
      "its processing job is dead: ffmpeg was killed (SIGKILL)",
      "its processing job is gone",
      "its processing job was cancelled",
    ]);
    // The story with a queued job is untouched (its worker will say how it ends).
    expect((await story(live)).processing_state).toBe("queued");
    expect((await jobOf(live)).state).toBe("queued");
    // A second pass (maintenance) finds nothing more to repair.
    expect(await running.app.processingRepair.repairAll()).toEqual([]);
  });
});
