import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { expect, it, vi } from "vitest";
import type { Database } from "../../db/schema.js";
import { describeEachDialect } from "../../test/dialects.js";
import { createPrincipal, usePrincipals } from "../../test/principals.js";
import { api, processingJobsFor, uploadStory, useStoriesApp } from "../../test/stories-app.js";
import type { EnqueueOptions, JobDefinition } from "../jobs/job-types.js";
import { PROCESS_STORIES_JOB } from "./stories.compose.js";

describeEachDialect("story lifecycle", (dialect) => {
  const ctx = useStoriesApp(dialect);
  const call = api(ctx);
  const { editor, viewer, contributor } = usePrincipals(ctx, "life", ["editor", "viewer", "contributor"]);

  it("turns an upload into a draft with version 1 and its original file", async () => {
    const { story, duplicates } = await uploadStory(ctx(), editor, { name: "台风登陆.jpg" });
    expect(duplicates).toEqual([]);
    expect(story).toMatchObject({
      status: "draft",
      type: "photo",
      title: "台风登陆",
      versionNo: 1,
      libraryId: "product",
    });
    const got = await call(editor, "GET", `/stories/product/${story.id}`);
    expect(got.statusCode).toBe(200);
    expect(got.json().data.files).toEqual([
      expect.objectContaining({ role: "original", mime: "image/jpeg", versionNo: 1 }),
    ]);
    const versions = (await call(editor, "GET", `/stories/product/${story.id}/versions`)).json().data;
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({ versionNo: 1, oid: story.oid, current: true, originalName: "台风登陆.jpg" });
    expect(JSON.stringify(versions)).not.toContain("originals/");
  });

  it("writes the upload module's rows in the story's transaction: both or neither", async () => {
    const blobKey = `originals/${randomUUID()}`;
    const input = {
      userId: editor.id,
      libraryId: "product",
      type: "photo" as const,
      blobKey,
      sha256: "b".repeat(64),
      size: 1,
      mime: "image/jpeg",
      originalName: "x.jpg",
    };
    await expect(
      ctx().module.stories.createDraftFromUpload(input, {
        withinTransaction: async () => {
          throw new Error("the blob row could not be written");
        },
      }),
    ).rejects.toThrow("the blob row");
    const files = ctx().db.kysely.selectFrom("story_files").select("story_id").where("blob_key", "=", blobKey);
    expect(await files.execute()).toEqual([]);

    // The processing job is written before the upload's rows: a failure there takes the job back too.
    let rolledBack = "";
    await expect(
      ctx().module.stories.createDraftFromUpload(input, {
        enqueueProcessing: true,
        withinTransaction: async (trx, created) => {
          rolledBack = created.id;
          const queued = await trx
            .selectFrom("jobs")
            .select("payload")
            .where("name", "=", PROCESS_STORIES_JOB)
            .execute();
          expect(queued.map((job) => JSON.stringify(job.payload))).toContainEqual(expect.stringContaining(created.id));
          throw new Error("the blob row could not be written");
        },
      }),
    ).rejects.toThrow("the blob row");
    expect(rolledBack).not.toBe("");
    expect(await processingJobsFor(ctx(), rolledBack)).toEqual([]);
    expect(await files.execute()).toEqual([]);

    let seen: unknown;
    const { story } = await ctx().module.stories.createDraftFromUpload(input, {
      enqueueProcessing: true,
      ip: "192.0.2.7",
      withinTransaction: async (trx, created) => {
        seen = await trx.selectFrom("stories").select(["id", "status"]).where("id", "=", created.id).executeTakeFirst();
      },
    });
    expect(seen).toEqual({ id: story.id, status: "draft" });
    expect((await files.execute()).map((row) => row.story_id)).toEqual([story.id]);
    expect(await processingJobsFor(ctx(), story.id)).toEqual([
      { id: expect.any(String), state: "queued", ids: [story.id] },
    ]);
    const actions = (await call(editor, "GET", `/story-actions?libraryId=product&storyId=${story.id}`)).json().data;
    expect(actions.content[0]).toMatchObject({ action: "create", ip: "192.0.2.7", username: "life-editor" });
  });

  it("refuses an upload into a library the user cannot write", async () => {
    await expect(uploadStory(ctx(), viewer, {})).rejects.toMatchObject({ status: 403 });
    await expect(uploadStory(ctx(), contributor, { libraryId: "personal" })).rejects.toMatchObject({ status: 404 });
  });

  it("commits drafts with the form's metadata and enqueues processing in the same transaction", async () => {
    const a = (await uploadStory(ctx(), editor, {})).story;
    const b = (await uploadStory(ctx(), editor, {})).story;
    expect(await processingJobsFor(ctx(), a.id)).toEqual([]);
    const committed = await call(editor, "POST", "/workflow-story-create/photo/commit", {
      libraryId: "product",
      storyIds: [a.id, b.id],
      metadata: { caption: "台风“山竹”登陆", keywords: ["台风"], authors: ["李明"] },
    });
    expect(committed.statusCode).toBe(200);
    const stories = committed.json().data as { id: string; status: string; caption: string; processingState: string }[];
    expect(stories.map((story) => [story.id, story.status, story.processingState])).toEqual([
      [a.id, "committed", "queued"],
      [b.id, "committed", "queued"],
    ]);
    expect(stories[0]!.caption).toBe("台风“山竹”登陆");
    // One job per story, in the durable queue; the app's worker is not running in tests, so it stays queued.
    const [job] = await processingJobsFor(ctx(), a.id);
    expect(job).toEqual({ id: expect.any(String), state: "queued", ids: [a.id] });
    const [jobOfB] = await processingJobsFor(ctx(), b.id);
    expect(jobOfB).toEqual({ id: expect.any(String), state: "queued", ids: [b.id] });
    expect(jobOfB!.id).not.toBe(job!.id);
    expect(ctx().app.jobs.worker.started).toBe(false);
    expect((await ctx().app.jobs.queue.get(job!.id)).name).toBe(PROCESS_STORIES_JOB);

    const again = await call(editor, "POST", "/workflow-story-create/photo/commit", {
      libraryId: "product",
      storyIds: [a.id],
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toContain("storyIds.0");
    const wrongType = await call(editor, "POST", "/workflow-story-create/video/commit", {
      libraryId: "product",
      storyIds: [a.id],
    });
    expect(wrongType.statusCode).toBe(400);
  });

  it("rolls the commit back when it fails after the job is written: no job without its committed story", async () => {
    const { story } = await uploadStory(ctx(), editor, {});
    const queue = ctx().app.jobs.queue;
    const enqueue = queue.enqueue.bind(queue);
    let inTransaction: unknown[] = [];
    const failing = vi.spyOn(queue, "enqueue").mockImplementationOnce((async (
      definition: JobDefinition<unknown>,
      payload: unknown,
      options?: EnqueueOptions,
    ) => {
      const id = await enqueue(definition, payload, options);
      const trx = options!.transaction as Kysely<Database>;
      inTransaction = await trx.selectFrom("jobs").select("id").where("id", "=", id).execute();
      throw new Error("the commit failed after its job was written (test)");
    }) as typeof queue.enqueue);
    try {
      const failed = await call(editor, "POST", "/workflow-story-create/photo/commit", {
        libraryId: "product",
        storyIds: [story.id],
      });
      expect(failed.statusCode).toBe(500);
    } finally {
      failing.mockRestore();
    }
    expect(inTransaction).toHaveLength(1);
    expect(await processingJobsFor(ctx(), story.id)).toEqual([]);
    const after = (await call(editor, "GET", `/stories/product/${story.id}`)).json().data;
    expect(after).toMatchObject({ status: "draft", processingState: "none" });

    const again = await call(editor, "POST", "/workflow-story-create/photo/commit", {
      libraryId: "product",
      storyIds: [story.id],
    });
    expect(again.statusCode).toBe(200);
    expect(await processingJobsFor(ctx(), story.id)).toEqual([
      { id: expect.any(String), state: "queued", ids: [story.id] },
    ]);
  });

  it("creates drafts from metadata, edits them, and names the field of a validation error", async () => {
    const form = await call(editor, "GET", "/workflow-story-create/video");
    expect(form.json().data).toMatchObject({
      type: "video",
      libraryId: "material",
      libraryName: "素材库",
      writable: true,
    });
    const created = await call(editor, "POST", "/workflow-story-create/audio", {
      libraryId: "product",
      title: "早间新闻",
      properties: { programme: "morning" },
    });
    expect(created.statusCode).toBe(200);
    const id = created.json().data.id as string;
    expect(created.json().data).toMatchObject({ type: "audio", status: "draft", properties: { programme: "morning" } });

    const edited = await call(editor, "PUT", `/workflow-story-edit/audio/${id}?libraryId=product`, {
      caption: "新的说明",
      tags: ["广播"],
      halfProduct: true,
      properties: { programme: null, desk: "radio" },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().data).toMatchObject({
      caption: "新的说明",
      tags: ["广播"],
      halfProduct: true,
      properties: { desk: "radio" },
    });

    const reserved = await call(editor, "PUT", `/workflow-story-edit/audio/${id}?libraryId=product`, {
      properties: { lastVersion: "x" },
    });
    expect(reserved.statusCode).toBe(400);
    expect(reserved.json().msg).toContain("properties.lastVersion");
    const tooLong = await call(editor, "PUT", `/workflow-story-edit/audio/${id}?libraryId=product`, {
      title: "x".repeat(501),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().msg).toContain("body.title");
    const noLibrary = await call(editor, "PUT", `/workflow-story-edit/audio/${id}`, { title: "t" });
    expect(noLibrary.json().msg).toContain("querystring.libraryId");
    const wrongType = await call(editor, "PUT", `/workflow-story-edit/photo/${id}?libraryId=product`, { title: "t" });
    expect(wrongType.statusCode).toBe(400);
    const elsewhere = await call(editor, "PUT", `/workflow-story-edit/audio/${id}?libraryId=material`, { title: "t" });
    expect(elsewhere.statusCode).toBe(404);
    const byViewer = await call(viewer, "PUT", `/workflow-story-edit/audio/${id}?libraryId=product`, { title: "t" });
    expect(byViewer.statusCode).toBe(403);
  });

  it("refuses writes to a library the user only reads with 403", async () => {
    const { story } = await uploadStory(ctx(), editor, { libraryId: "personal" });
    const reader = await createPrincipal(ctx().db, { username: "life-reader", roleId: "contributor" });
    await ctx()
      .db.kysely.insertInto("library_grants")
      .values({
        id: randomUUID(),
        library_id: "personal",
        role_id: null,
        user_id: reader.id,
        level: "read",
        created_at: new Date().toISOString(),
      })
      .execute();
    expect((await call(reader, "GET", `/stories/personal/${story.id}`)).statusCode).toBe(200);
    const edit = await call(reader, "PUT", `/workflow-story-edit/photo/${story.id}?libraryId=personal`, {
      title: "x",
    });
    expect(edit.statusCode).toBe(403);
    const commit = await call(reader, "POST", "/workflow-story-create/photo/commit", {
      libraryId: "personal",
      storyIds: [story.id],
    });
    expect(commit.statusCode).toBe(403);
    const relate = await call(reader, "POST", `/stories/relation/personal/${story.id}`, {
      relatedLibraryId: "product",
      relatedStoryId: story.id,
    });
    expect(relate.statusCode).toBe(403);
    expect((await call(reader, "GET", `/stories/department/${story.id}`)).statusCode).toBe(404);
  });

  it("deletes a story with its blobs; its actions stay", async () => {
    const { story } = await uploadStory(ctx(), editor, { bytes: "to delete" });
    const original = await ctx()
      .db.kysely.selectFrom("story_files")
      .select("blob_key as blobKey")
      .where("story_id", "=", story.id)
      .executeTakeFirstOrThrow();
    expect(await ctx().blobs.stat(original.blobKey)).not.toBeNull();
    expect((await call(contributor, "DELETE", `/workflow-story-delete/product/${story.id}`)).statusCode).toBe(403);
    expect((await call(editor, "DELETE", `/workflow-story-delete/material/${story.id}`)).statusCode).toBe(404);
    expect((await call(editor, "DELETE", `/workflow-story-delete/product/${story.id}`)).statusCode).toBe(200);
    expect((await call(editor, "GET", `/stories/product/${story.id}`)).statusCode).toBe(404);
    expect(await ctx().blobs.stat(original.blobKey)).toBeNull();
    const actions = (await call(editor, "GET", `/story-actions?libraryId=product&storyId=${story.id}`)).json().data;
    expect(actions.content.map((action: { action: string }) => action.action)).toEqual(["delete", "create"]);
  });

  it("records who did what, when and from where", async () => {
    const { story } = await uploadStory(ctx(), editor, {});
    await call(editor, "POST", "/workflow-story-create/photo/commit", { libraryId: "product", storyIds: [story.id] });
    await call(editor, "PUT", `/workflow-story-edit/photo/${story.id}?libraryId=product`, { title: "新标题" });
    await call(editor, "GET", `/workflow-story-download/product/${story.id}`);
    const response = await call(viewer, "GET", `/story-actions?libraryId=product&storyId=${story.id}`);
    expect(response.statusCode).toBe(200);
    const actions = response.json().data.content as {
      action: string;
      username: string;
      ip: string;
      at: string;
      details: object;
    }[];
    expect(actions.map((action) => action.action)).toEqual(["download", "edit", "commit", "create"]);
    expect(actions[0]).toMatchObject({ username: "life-editor", ip: "127.0.0.1" });
    expect(actions[1]!.details).toEqual({
      fields: ["title"],
      changes: [{ field: "title", from: "台风", to: "新标题" }],
    });
    expect(Date.parse(actions[0]!.at)).not.toBeNaN();
    expect((await call(contributor, "GET", `/story-actions?libraryId=personal&storyId=${story.id}`)).statusCode).toBe(
      404,
    );
    expect(
      (await call(contributor, "GET", `/story-actions?libraryId=product&storyId=${randomUUID()}`)).json().data
        .totalElements,
    ).toBe(0);
  });

  it("lets the media jobs add renditions, fill empty fields and set the processing state", async () => {
    const { story } = await uploadStory(ctx(), editor, { name: "camera.jpg" });
    await call(editor, "PUT", `/workflow-story-edit/photo/${story.id}?libraryId=product`, {
      caption: "editor's caption",
    });
    const filled = await ctx().module.stories.applyExtractedMetadata(story.id, {
      caption: "EXIF caption",
      keywords: ["风暴"],
      capturedAt: "2018-09-16T08:00:00.000Z",
      gps: { latitude: 22.3, longitude: 114.2 },
      width: 4000,
      height: 3000,
      perceptualHash: "00FF00FF00FF00FF",
      properties: { camera: "Canon EOS R5" },
    });
    expect(filled).toMatchObject({
      title: "camera",
      caption: "editor's caption",
      keywords: ["风暴"],
      capturedAt: "2018-09-16T08:00:00.000Z",
      gps: { latitude: 22.3, longitude: 114.2 },
      width: 4000,
      perceptualHash: "00ff00ff00ff00ff",
      properties: { camera: "Canon EOS R5" },
    });
    // The original file of the version learns its pixel size too (the version compare shows it).
    const original = (await call(editor, "GET", `/stories/product/${story.id}`))
      .json()
      .data.files.find((file: { role: string }) => file.role === "original");
    expect(original).toMatchObject({ width: 4000, height: 3000 });
    const { replacedBlobKey } = await ctx().module.stories.addRendition({
      storyId: story.id,
      role: "thumbnail",
      blobKey: "renditions/t1",
      mime: "image/webp",
      size: 5,
      width: 256,
      height: 256,
    });
    expect(replacedBlobKey).toBeNull();
    expect(
      (
        await ctx().module.stories.addRendition({
          storyId: story.id,
          role: "thumbnail",
          blobKey: "renditions/t2",
          mime: "image/webp",
          size: 6,
        })
      ).replacedBlobKey,
    ).toBe("renditions/t1");
    await expect(ctx().module.stories.applyExtractedMetadata(story.id, { perceptualHash: "xyz" })).rejects.toThrow(
      "perceptualHash",
    );
    await expect(ctx().module.stories.applyExtractedMetadata(story.id, { capturedAt: "yesterday" })).rejects.toThrow(
      "capturedAt",
    );
    await ctx().module.stories.setProcessingState(story.id, "failed", "truncated JPEG");
    const view = (await call(editor, "GET", `/stories/product/${story.id}`)).json().data;
    expect(view).toMatchObject({ processingState: "failed", processingError: "truncated JPEG" });
    expect(view.thumbnailUrl).toContain(`/stories/download/product/${story.id}?rendition=thumbnail`);
    expect(view.coverUrl).toContain("rendition=cover");
  });
});
