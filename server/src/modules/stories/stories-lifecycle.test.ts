import { randomBytes, randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import type { Kysely } from "kysely";
import { beforeAll, expect, it, vi } from "vitest";
import type { Database } from "../../db/schema.js";
import { describeEachDialect } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { api, processingJobsFor, uploadStory, useStoriesApp } from "../../test/stories-app.js";
import { fileNameOf, readZip } from "../../test/zip.js";
import { USER_CONTENT_HEADERS } from "../blobs/send-blob.js";
import type { EnqueueOptions, JobDefinition } from "../jobs/job-types.js";
import { PROCESS_STORIES_JOB } from "./stories.compose.js";

describeEachDialect("story lifecycle", (dialect) => {
  const ctx = useStoriesApp(dialect);
  const call = api(ctx);
  let editor: TestPrincipal;
  let viewer: TestPrincipal;
  let contributor: TestPrincipal;

  beforeAll(async () => {
    editor = await createPrincipal(ctx().db, { username: "life-editor", roleId: "editor" });
    viewer = await createPrincipal(ctx().db, { username: "life-viewer", roleId: "viewer" });
    contributor = await createPrincipal(ctx().db, { username: "life-contributor", roleId: "contributor" });
  });

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

  it("keeps every version's files; lastVersion points at the previous version's oid", async () => {
    const first = (
      await uploadStory(ctx(), editor, {
        type: "video",
        libraryId: "material",
        bytes: "version one",
        name: "clip.mp4",
        mime: "video/mp4",
      })
    ).story;
    await call(editor, "POST", "/workflow-story-create/video/commit", { libraryId: "material", storyIds: [first.id] });
    await ctx().module.stories.addRendition({
      storyId: first.id,
      role: "poster",
      blobKey: "renditions/p1",
      mime: "image/jpeg",
      size: 10,
    });
    const draft = (
      await uploadStory(ctx(), editor, {
        type: "video",
        libraryId: "material",
        bytes: "version two",
        name: "clip-edit.mp4",
        mime: "video/mp4",
      })
    ).story;
    expect(await processingJobsFor(ctx(), first.id)).toHaveLength(1);

    const response = await call(editor, "POST", "/workflow-story-create/newversion/video", {
      libraryId: "material",
      storyId: first.id,
      fromLibraryId: "material",
      fromStoryId: draft.id,
      note: "cut",
    });
    expect(response.statusCode).toBe(200);
    const story = response.json().data;
    expect(story).toMatchObject({
      versionNo: 2,
      properties: { lastVersion: first.oid },
      originalName: "clip-edit.mp4",
      processingState: "queued",
    });
    expect(story.oid).not.toBe(first.oid);
    const jobs = await processingJobsFor(ctx(), first.id);
    expect(jobs).toHaveLength(2);
    expect(jobs[1]).toMatchObject({ state: "queued", ids: [first.id] });

    const versions = (await call(editor, "GET", `/stories/material/${first.id}/versions`)).json().data as {
      versionNo: number;
      oid: string;
      current: boolean;
      files: { role: string }[];
    }[];
    expect(
      versions.map((version) => [version.versionNo, version.current, version.files.map((file) => file.role).sort()]),
    ).toEqual([
      [1, false, ["original", "poster"]],
      [2, true, ["original"]],
    ]);
    expect(versions[0]!.oid).toBe(first.oid);
    const one = await call(editor, "GET", `/stories/material/${first.id}/versions/1`);
    expect(one.json().data).toMatchObject({ versionNo: 1, oid: first.oid });
    expect((await call(editor, "GET", `/stories/material/${first.id}/versions/3`)).statusCode).toBe(404);
    expect((await call(editor, "GET", `/stories/material/${draft.id}`)).statusCode).toBe(404);

    const current = await call(editor, "GET", `/workflow-story-download/material/${first.id}`);
    expect(current.statusCode).toBe(200);
    expect(current.body).toBe("version two");
    // Named after the story's title, with the extension of the version's file.
    expect(fileNameOf(current.headers["content-disposition"])).toBe("clip.mp4");
    expect(current.headers["x-content-type-options"]).toBe("nosniff");
    const old = await call(editor, "GET", `/workflow-story-download/material/${first.id}?versionNo=1`);
    expect(old.body).toBe("version one");
    expect(
      (await call(editor, "GET", `/workflow-story-download/material/${first.id}?rendition=proxy`)).statusCode,
    ).toBe(404);

    const third = await ctx().module.stories.addVersionFromUpload({
      userId: editor.id,
      libraryId: "material",
      storyId: first.id,
      blobKey: "originals/third",
      sha256: "a".repeat(64),
      size: 3,
      mime: "video/mp4",
      originalName: "third.mp4",
    });
    expect(third).toMatchObject({ versionNo: 3, properties: { lastVersion: story.oid } });
  });

  it("keeps the story's pixel size that of its current version, whichever media job ends last", async () => {
    const { story } = await uploadStory(ctx(), editor, { name: "resized.jpg" });
    const stories = ctx().module.stories;
    /** The story's size, and each version's original's. */
    const sizes = async () => {
      const view = (await call(editor, "GET", `/stories/product/${story.id}`)).json().data as {
        width: number | null;
        height: number | null;
      };
      const versions = (await call(editor, "GET", `/stories/product/${story.id}/versions`)).json().data as {
        versionNo: number;
        files: { role: string; width: number | null; height: number | null }[];
      }[];
      return {
        story: [view.width, view.height],
        originals: versions.map(({ versionNo, files }) => {
          const original = files.find((file) => file.role === "original");
          return [versionNo, original?.width, original?.height];
        }),
      };
    };
    expect((await stories.applyExtractedMetadata(story.id, { width: 4000, height: 3000 }, 1)).width).toBe(4000);

    const second = await stories.addVersionFromUpload({
      userId: editor.id,
      libraryId: "product",
      storyId: story.id,
      blobKey: "originals/resized-v2",
      sha256: "b".repeat(64),
      size: 3,
      mime: "image/jpeg",
      originalName: "resized-v2.jpg",
    });
    expect(second.versionNo).toBe(2);
    // Version 1's job ends after version 2 was added: it describes version 1 only.
    await stories.applyExtractedMetadata(story.id, { width: 4000, height: 3000, perceptualHash: "0".repeat(16) }, 1);
    const afterStale = await sizes();
    expect(afterStale.story).toEqual([null, null]);
    expect((await call(editor, "GET", `/stories/product/${story.id}`)).json().data.perceptualHash).toBeNull();
    // Version 2's job: the story follows it, though its width and height were filled before.
    await stories.applyExtractedMetadata(story.id, { width: 1280, height: 720 }, 2);
    expect(await sizes()).toEqual({
      story: [1280, 720],
      originals: [
        [1, 4000, 3000],
        [2, 1280, 720],
      ],
    });

    // The image editor's save after that, processed (the job names no version: the current one).
    await stories.addVersionFromUpload({
      userId: editor.id,
      libraryId: "product",
      storyId: story.id,
      blobKey: "originals/resized-v3",
      sha256: "c".repeat(64),
      size: 3,
      mime: "image/jpeg",
      originalName: "resized-v3.jpg",
    });
    await stories.applyExtractedMetadata(story.id, { width: 720, height: 1280 });
    expect((await sizes()).story).toEqual([720, 1280]);
    // Processed again (a re-transcode): the size it recorded first stays the version's and the story's.
    await stories.applyExtractedMetadata(story.id, { width: 720, height: 1280 }, 3);
    expect((await sizes()).originals).toEqual([
      [1, 4000, 3000],
      [2, 1280, 720],
      [3, 720, 1280],
    ]);
  });

  it("gives a new version from a processed draft the draft's pixel size at once", async () => {
    const first = (await uploadStory(ctx(), editor, { name: "first.jpg" })).story;
    await ctx().module.stories.applyExtractedMetadata(first.id, { width: 4000, height: 3000 });
    const draft = (await uploadStory(ctx(), editor, { name: "cropped.jpg", bytes: "cropped" })).story;
    await ctx().module.stories.applyExtractedMetadata(draft.id, { width: 1600, height: 900 });
    const response = await call(editor, "POST", "/workflow-story-create/newversion/photo", {
      libraryId: "product",
      storyId: first.id,
      fromLibraryId: "product",
      fromStoryId: draft.id,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ versionNo: 2, width: 1600, height: 900 });
  });

  it("serves byte ranges for players and records only the start of a download", async () => {
    const { story } = await uploadStory(ctx(), editor, {
      bytes: "0123456789",
      name: "台风登陆 现场.mp4",
      type: "video",
      mime: "video/mp4",
    });
    const url = `/stories/download/product/${story.id}`;
    const get = (range?: string) => call(viewer, "GET", url, undefined, range ? { range } : {});
    const whole = await get();
    expect(whole.statusCode).toBe(200);
    expect(whole.body).toBe("0123456789");
    expect(whole.headers).toMatchObject({
      "accept-ranges": "bytes",
      "content-type": "video/mp4",
      "content-length": "10",
      "x-content-type-options": "nosniff",
      "content-security-policy": USER_CONTENT_HEADERS["content-security-policy"],
    });
    expect(whole.headers["content-disposition"]).toMatch(/^inline; /);
    expect(fileNameOf(whole.headers["content-disposition"])).toBe("台风登陆 现场.mp4");
    expect(whole.headers.etag).toBeTruthy();

    const middle = await get("bytes=2-5");
    expect(middle.statusCode).toBe(206);
    expect(middle.body).toBe("2345");
    expect(middle.headers["content-range"]).toBe("bytes 2-5/10");
    expect(middle.headers["content-length"]).toBe("4");
    const suffix = await get("bytes=-3");
    expect(suffix.statusCode).toBe(206);
    expect(suffix.body).toBe("789");
    expect(suffix.headers["content-range"]).toBe("bytes 7-9/10");
    expect((await get("bytes=7-")).body).toBe("789");
    const outside = await get("bytes=10-");
    expect(outside.statusCode).toBe(416);
    expect(outside.headers["content-range"]).toBe("bytes */10");
    const unchanged = await call(viewer, "GET", url, undefined, { "if-none-match": String(whole.headers.etag) });
    expect(unchanged.statusCode).toBe(304);
    expect((await call(viewer, "HEAD", url)).headers["content-length"]).toBe("10");

    // The attachment: the same bytes and ranges, saved under the title.
    const attachment = await call(viewer, "GET", `/workflow-story-download/product/${story.id}`, undefined, {
      range: "bytes=0-3",
    });
    expect(attachment.statusCode).toBe(206);
    expect(attachment.body).toBe("0123");
    expect(attachment.headers["content-disposition"]).toMatch(/^attachment; /);
    expect(fileNameOf(attachment.headers["content-disposition"])).toBe("台风登陆 现场.mp4");
    expect(attachment.headers["content-security-policy"]).toBe(USER_CONTENT_HEADERS["content-security-policy"]);
    expect(attachment.headers["x-content-type-options"]).toBe("nosniff");

    // Two downloads from byte 0 (the inline original and the attachment); the seeks, the 304 and HEAD are not.
    const actions = (await call(editor, "GET", `/story-actions?libraryId=product&storyId=${story.id}`)).json().data;
    expect(actions.content.map((action: { action: string }) => action.action)).toEqual([
      "download",
      "download",
      "download",
      "create",
    ]);
    expect(actions.content[0].details).toEqual({
      rendition: "original",
      versionNo: null,
      fileName: "台风登陆 现场.mp4",
    });
  });

  it("names files <title>.<ext> with a Chinese title intact; renditions shown inline are not recorded", async () => {
    const { story } = await uploadStory(ctx(), editor, { bytes: "jpeg bytes", name: "IMG_0001.JPG" });
    const edited = await call(editor, "PUT", `/workflow-story-edit/photo/${story.id}?libraryId=product`, {
      title: "“山竹”过境: 深圳/香港",
    });
    expect(edited.statusCode).toBe(200);
    const download = await call(viewer, "GET", `/workflow-story-download/product/${story.id}`);
    expect(download.statusCode).toBe(200);
    const header = String(download.headers["content-disposition"]);
    expect(fileNameOf(header)).toBe("“山竹”过境_ 深圳_香港.JPG");
    expect(header).toContain(`filename*=UTF-8''${encodeURIComponent("“山竹”过境_ 深圳_香港.JPG")}`);
    expect(header).toMatch(/^attachment; filename="[\x20-\x7e]+"/);

    await ctx().blobs.put(`renditions/${story.id}/v1/thumbnail.webp`, Readable.from([Buffer.from("webp bytes")]));
    await ctx().module.stories.addRendition({
      storyId: story.id,
      role: "thumbnail",
      blobKey: `renditions/${story.id}/v1/thumbnail.webp`,
      mime: "image/webp",
      size: 10,
    });
    for (const rendition of ["thumbnail", "cover"]) {
      const shown = await call(viewer, "GET", `/stories/download/product/${story.id}?rendition=${rendition}`);
      expect(shown.statusCode).toBe(200);
      expect(shown.body).toBe("webp bytes");
      expect(shown.headers).toMatchObject({
        "content-type": "image/webp",
        "x-content-type-options": "nosniff",
        "content-security-policy": USER_CONTENT_HEADERS["content-security-policy"],
      });
      expect(shown.headers["content-disposition"]).toMatch(/^inline; /);
      expect(fileNameOf(shown.headers["content-disposition"])).toBe(`“山竹”过境_ 深圳_香港-${rendition}.webp`);
    }
    const actions = (await call(editor, "GET", `/story-actions?libraryId=product&storyId=${story.id}`)).json().data;
    expect(actions.content.map((action: { action: string }) => action.action)).toEqual([
      "rendition",
      "download",
      "edit",
      "create",
    ]);
  });

  it("downloads several stories at once as a zip of the originals, each recorded", async () => {
    const first = randomBytes(70_000);
    const second = randomBytes(1234);
    const third = randomBytes(10);
    const a = (await uploadStory(ctx(), editor, { bytes: first, name: "现场.jpg" })).story;
    const b = (await uploadStory(ctx(), editor, { bytes: second, name: "现场.jpg" })).story;
    const c = (await uploadStory(ctx(), editor, { bytes: third, name: "采访.m4a", type: "audio", mime: "audio/mp4" }))
      .story;
    const response = await call(viewer, "GET", `/workflow-story-download/product/${a.id},${b.id},${c.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({
      "content-type": "application/zip",
      "x-content-type-options": "nosniff",
      "content-security-policy": USER_CONTENT_HEADERS["content-security-policy"],
      "content-length": String(response.rawPayload.length),
    });
    expect(fileNameOf(response.headers["content-disposition"])).toBe("product-3-stories.zip");
    expect(response.headers["content-disposition"]).toMatch(/^attachment; /);
    expect(await readZip(response.rawPayload)).toEqual(
      new Map([
        ["现场.jpg", first],
        ["现场 (2).jpg", second],
        ["采访.m4a", third],
      ]),
    );
    for (const story of [a, b, c]) {
      const actions = (await call(editor, "GET", `/story-actions?libraryId=product&storyId=${story.id}`)).json().data;
      expect(actions.content[0]).toMatchObject({ action: "download", username: "life-viewer" });
    }
    const elsewhere = await call(viewer, "GET", `/workflow-story-download/material/${a.id},${b.id}`);
    expect(elsewhere.statusCode).toBe(404);
    const noRendition = await call(viewer, "GET", `/workflow-story-download/product/${a.id},${b.id}?rendition=proxy`);
    expect(noRendition.statusCode).toBe(404);
    const withVersion = await call(viewer, "GET", `/workflow-story-download/product/${a.id},${b.id}?versionNo=1`);
    expect(withVersion.statusCode).toBe(400);
    expect(withVersion.json().msg).toContain("versionNo");
    const bad = await call(viewer, "GET", `/workflow-story-download/product/${a.id},nope`);
    expect(bad.json().msg).toContain("params.storyIds");
  });

  it("answers 404 to a download from a library the user cannot read, and records nothing", async () => {
    const { story } = await uploadStory(ctx(), editor, { libraryId: "personal", bytes: "private" });
    const other = (await uploadStory(ctx(), editor, { libraryId: "personal" })).story;
    for (const url of [
      `/stories/download/personal/${story.id}`,
      `/stories/download/personal/${story.id}?rendition=thumbnail`,
      `/workflow-story-download/personal/${story.id}`,
      `/workflow-story-download/personal/${story.id},${other.id}`,
      // Through a library the user can read: the story is not there.
      `/stories/download/product/${story.id}`,
      `/workflow-story-download/product/${story.id},${other.id}`,
    ]) {
      const response = await call(contributor, "GET", url);
      expect(response.statusCode, url).toBe(404);
      expect(response.body).not.toContain("private");
    }
    const actions = (await call(editor, "GET", `/story-actions?libraryId=personal&storyId=${story.id}`)).json().data;
    expect(actions.content.map((action: { action: string }) => action.action)).toEqual(["create"]);
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
