import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { jobStories } from "../../db/migrations/0011-job-stories.js";
import { describeEachDialect } from "../../test/dialects.js";
import { usePrincipals } from "../../test/principals.js";
import { api, uploadStory, useStoriesApp } from "../../test/stories-app.js";
import { PROCESS_STORIES_JOB } from "../stories/stories.compose.js";

describeEachDialect("a story's processing for its readers", (dialect) => {
  const ctx = useStoriesApp(dialect);
  const call = api(ctx);
  const { editor, viewer, contributor } = usePrincipals(ctx, "jobs", ["editor", "viewer", "contributor"]);

  it("shows each committed story its own job, its progress and the reason of a failed attempt", async () => {
    const a = (await uploadStory(ctx(), editor, { type: "video", mime: "video/mp4", name: "a.mp4" })).story;
    const b = (await uploadStory(ctx(), editor, { type: "video", mime: "video/mp4", name: "b.mp4" })).story;
    const committed = await call(editor, "POST", "/workflow-story-create/video/commit", {
      libraryId: "product",
      storyIds: [a.id, b.id],
    });
    expect(committed.statusCode).toBe(200);

    const before = await call(viewer, "GET", `/stories/product/${a.id}/processing`);
    expect(before.statusCode).toBe(200);
    expect(before.json().data).toMatchObject({ processingState: "queued", processingError: null, versionNo: 1 });
    const [queued] = before.json().data.jobs;
    expect(before.json().data.jobs).toHaveLength(1);
    expect(queued).toMatchObject({ kind: PROCESS_STORIES_JOB, state: "queued", progress: 0, attempts: 0, error: null });
    const jobOfB = (await call(viewer, "GET", `/stories/product/${b.id}/processing`)).json().data.jobs[0];
    expect(jobOfB.id).not.toBe(queued.id);

    // A worker claims the job and reports progress, as the media job does while ffmpeg runs.
    const queue = ctx().app.jobs.queue;
    const claimed = (await queue.claim([PROCESS_STORIES_JOB], 100, "test")).find((one) => one.job.id === queued.id)!;
    expect(claimed).toBeDefined();
    await queue.saveProgress(claimed.lease, 42);
    const running = (await call(viewer, "GET", `/stories/product/${a.id}/processing`)).json().data.jobs[0];
    expect(running).toMatchObject({ id: queued.id, state: "running", progress: 42, attempts: 1 });
    expect(running.startedAt).toEqual(expect.any(String));

    await queue.fail(claimed, new Error("ffmpeg: moov atom not found"));
    const retried = (await call(viewer, "GET", `/stories/product/${a.id}/processing`)).json().data.jobs[0];
    expect(retried).toMatchObject({ state: "queued", attempts: 1, error: "ffmpeg: moov atom not found" });
  });

  it("answers 404 to a user who cannot read the story's library", async () => {
    const { story } = await uploadStory(ctx(), editor, { libraryId: "department", name: "d.jpg" });
    expect((await call(contributor, "GET", `/stories/department/${story.id}/processing`)).statusCode).toBe(404);
    expect((await call(viewer, "GET", `/stories/department/${story.id}/processing`)).statusCode).toBe(200);
  });

  it("fills story_id of earlier single-story jobs when the column is added, and leaves batches without one", async () => {
    const { db } = ctx();
    const migration = jobStories(db.adapter);
    await migration.down(db.kysely);
    const single = randomUUID();
    const now = new Date().toISOString();
    const row = (id: string, ids: string[]) => ({
      id,
      name: PROCESS_STORIES_JOB,
      payload: db.adapter.writeJson({ ids }),
      state: "succeeded" as const,
      attempts: 1,
      max_attempts: 3,
      run_at: now,
      progress: 100,
      cancel_requested: false,
      created_at: now,
      updated_at: now,
    });
    const singleJob = randomUUID();
    const batchJob = randomUUID();
    // biome-ignore lint/suspicious/noExplicitAny: the table has no story_id while the migration is undone.
    await (db.kysely as any)
      .insertInto("jobs")
      .values([row(singleJob, [single]), row(batchJob, [randomUUID(), randomUUID()])])
      .execute();
    await migration.up(db.kysely);
    const rows = await db.kysely
      .selectFrom("jobs")
      .select(["id", "story_id"])
      .where("id", "in", [singleJob, batchJob])
      .execute();
    expect(new Map(rows.map((one) => [one.id, one.story_id]))).toEqual(
      new Map([
        [singleJob, single],
        [batchJob, null],
      ]),
    );
  });
});
