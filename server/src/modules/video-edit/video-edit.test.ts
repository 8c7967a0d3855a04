/**
 * The video editor's calls through the real app on both dialects: renders run
 * by the app's own worker with the real ffmpeg on clips made here (320×180,
 * 3 s), the result made a story, saved new and as a new version.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DEFAULT_WATERMARK } from "../../shared/watermark.js";
import { describeEachDialect } from "../../test/dialects.js";
import { eventually } from "../../test/eventually.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { api, type StoriesTestContext, uploadStory, useStoriesApp } from "../../test/stories-app.js";
import { BlobsRepository } from "../blobs/blobs.repository.js";
import { renderExpiryJob } from "./render-expiry.job.js";
import { VideoEditRepository } from "./video-edit.repository.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dams-video-edit-app-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function makeClip(name: string, source: string, seconds: number): Buffer {
  const file = path.join(dir, name);
  execFileSync(
    "ffmpeg",
    ["-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi", "-i"]
      .concat([`${source}=size=320x180:rate=25`, "-f", "lavfi", "-i", "sine=frequency=500:sample_rate=48000"])
      .concat(["-t", String(seconds), "-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-pix_fmt", "yuv420p"])
      .concat(["-c:a", "aac", file]),
  );
  return fs.readFileSync(file);
}

interface Render {
  id: string;
  state: string;
  progress: number;
  error: string | null;
  videoUrl: string;
  method: string | null;
  durationSeconds: number | null;
  story: { libraryId: string; storyId: string } | null;
}

describeEachDialect("video edit", (dialect) => {
  const ctx = useStoriesApp(dialect);
  const call = api(ctx);
  let editor: TestPrincipal;
  let other: TestPrincipal;
  let viewer: TestPrincipal;
  let clips: { a: string; b: string; broken: string; photo: string };

  const clip = (storyId: string, inPoint: number, outPoint: number, extra: object = {}) => ({
    id: `${storyId}-${inPoint}`,
    kind: "video",
    source: { libraryId: "material", storyId },
    in: inPoint,
    out: outPoint,
    ...extra,
  });
  const edl = (parts: object) => ({ schema: "dams.edl", version: 1, output: { preset: "original" }, ...parts });
  const data = <T>(response: { json(): unknown }) => (response.json() as { data: T }).data;
  const render = async (who: TestPrincipal, id: string) =>
    data<Render>(await call(who, "GET", `/video-edit/renders/${id}`));
  const finished = (who: TestPrincipal, id: string) =>
    eventually(
      () => render(who, id),
      (value) => ["done", "failed", "cancelled"].includes(value.state),
      { limitMs: 120_000 },
    );

  beforeAll(async () => {
    const context: StoriesTestContext = ctx();
    context.app.jobs.worker.start();
    editor = await createPrincipal(context.db, { username: `editor-${dialect}`, roleId: "editor" });
    other = await createPrincipal(context.db, { username: `other-${dialect}`, roleId: "editor" });
    viewer = await createPrincipal(context.db, { username: `viewer-${dialect}`, roleId: "viewer" });
    const upload = async (bytes: Buffer, type: "video" | "photo") =>
      (
        await uploadStory(context, editor, {
          libraryId: "material",
          type,
          bytes,
          name: type === "video" ? "clip.mp4" : "photo.jpg",
          mime: type === "video" ? "video/mp4" : "image/jpeg",
        })
      ).story.id;
    const a = await upload(makeClip("a.mp4", "testsrc2", 3), "video");
    const b = await upload(makeClip("b.mp4", "smptehdbars", 3), "video");
    const broken = await upload(Buffer.from("not a video at all, just text"), "video");
    execFileSync(
      "ffmpeg",
      ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=640x480", "-frames:v", "1"].concat([
        path.join(dir, "photo.jpg"),
      ]),
    );
    const photo = await upload(fs.readFileSync(path.join(dir, "photo.jpg")), "photo");
    clips = { a, b, broken, photo };
  }, 120_000);

  it("renders two clips with a title, makes the render a story and saves it with its EDL", async () => {
    const body = edl({
      title: "发布会",
      clips: [clip(clips.a, 0, 2), clip(clips.b, 1, 3, { transition: { type: "crossfade", duration: 0.5 } })],
      texts: [{ id: "t", kind: "lowerThird", text: "李明", subtitle: "记者", start: 0, end: 2 }],
      captions: { mode: "sidecar", cues: [{ start: 0.5, end: 1.5, text: "第一句" }] },
      poster: { time: 1 },
    });
    const started = await call(editor, "POST", "/video-edit/renders", { edl: body });
    expect(started.statusCode).toBe(200);
    const done = await finished(editor, data<Render>(started).id);
    expect(done).toMatchObject({ state: "done", progress: 100, method: "encode", error: null });
    expect(done.durationSeconds).toBeCloseTo(3.5, 1);
    // The file is the caller's: another user sees nothing.
    expect((await call(editor, "GET", `/video-edit/renders/${done.id}/file`)).headers["content-type"]).toBe(
      "video/mp4",
    );
    expect((await call(other, "GET", `/video-edit/renders/${done.id}/file`)).statusCode).toBe(404);
    expect((await call(other, "GET", `/video-edit/renders/${done.id}`)).statusCode).toBe(404);

    const created = await call(editor, "POST", "/video-edit/stories", {
      videoUrl: done.videoUrl,
      libraryId: "material",
    });
    expect(created.statusCode).toBe(200);
    const story = data<{ libraryId: string; storyId: string }>(created);
    // Again: the same story, not a second one.
    const again = await call(editor, "POST", "/video-edit/stories", { videoUrl: done.videoUrl, libraryId: "material" });
    expect(data<{ storyId: string }>(again).storyId).toBe(story.storyId);
    const task = await eventually(
      async () =>
        data<{ state: string; progress: number }>(
          await call(editor, "GET", `/video-trans-tasks?videoUrl=material/${story.storyId}&type=video`),
        ),
      (value) => value.progress === 100 || value.state === "failed",
      { limitMs: 120_000 },
    );
    expect(task.state).toBe("done");
    const committed = await call(editor, "POST", "/workflow-story-create/video/commit", {
      libraryId: "material",
      storyIds: [story.storyId],
    });
    expect(committed.statusCode).toBe(200);
    const view = data<{ title: string; status: string; coverUrl: string | null; files: { role: string }[] }>(
      await call(editor, "GET", `/stories/material/${story.storyId}`),
    );
    expect(view).toMatchObject({ title: "发布会", status: "committed" });
    expect(view.files.map((file) => file.role)).toEqual(
      expect.arrayContaining(["original", "edit", "captions", "cover", "proxy"]),
    );
    const captions = await call(editor, "GET", `/stories/download/material/${story.storyId}?rendition=captions`);
    expect(captions.body).toContain("00:00:00.500 --> 00:00:01.500\n第一句");
    const reopened = data<{ clips: unknown[]; title: string }>(
      await call(viewer, "GET", `/video-edit/stories/material/${story.storyId}/edl`),
    );
    expect(reopened.title).toBe("发布会");
    expect(reopened.clips).toHaveLength(2);
    const relations = data<{ relatedStoryId?: string; storyId?: string }[]>(
      await call(editor, "GET", `/stories/relation/material/${story.storyId}`),
    );
    expect(JSON.stringify(relations)).toContain(clips.a);
  }, 300_000);

  it("saves an edit of an existing video as its version 2 with lastVersion", async () => {
    const base = data<{ oid: string }>(await call(editor, "GET", `/stories/material/${clips.a}`));
    const started = await call(editor, "POST", "/video-edit/renders", { edl: edl({ clips: [clip(clips.a, 1, 2)] }) });
    const done = await finished(editor, data<Render>(started).id);
    expect(done.state).toBe("done");
    const created = data<{ libraryId: string; storyId: string }>(
      await call(editor, "POST", "/video-edit/stories", {
        videoUrl: done.videoUrl,
        libraryId: "material",
        base: { libraryId: "material", storyId: clips.a },
      }),
    );
    const saved = await call(editor, "POST", "/workflow-story-create/newversion/video", {
      libraryId: "material",
      storyId: clips.a,
      fromLibraryId: created.libraryId,
      fromStoryId: created.storyId,
    });
    expect(saved.statusCode).toBe(200);
    const story = data<{ versionNo: number; properties: { lastVersion?: string } }>(saved);
    expect(story.versionNo).toBe(2);
    expect(story.properties.lastVersion).toBe(base.oid);
    const edlOfVersion = await call(editor, "GET", `/video-edit/stories/material/${clips.a}/edl?versionNo=2`);
    expect(edlOfVersion.statusCode).toBe(200);
    expect((await call(editor, "GET", `/video-edit/stories/material/${clips.a}/edl?versionNo=1`)).statusCode).toBe(404);
  }, 300_000);

  it("names the caller's project a video was rendered from, also once it became another video's next version", async () => {
    const project = data<{ id: string; revision: number }>(
      await call(editor, "POST", "/video-edit/projects", { kind: "video", edl: edl({ clips: [clip(clips.b, 0, 1)] }) }),
    );
    const rendered = async (base?: { libraryId: string; storyId: string }) => {
      const body = { edl: edl({ clips: [clip(clips.b, 0, 1)] }), projectId: project.id };
      const done = await finished(editor, data<Render>(await call(editor, "POST", "/video-edit/renders", body)).id);
      expect(done.state).toBe("done");
      const created = await call(editor, "POST", "/video-edit/stories", {
        videoUrl: done.videoUrl,
        libraryId: "material",
        ...(base ? { base } : {}),
      });
      return data<{ libraryId: string; storyId: string }>(created);
    };
    const projectOf = async (who: TestPrincipal, storyId: string, query = "") =>
      data<{ id: string; revision: number } | null>(
        await call(who, "GET", `/video-edit/stories/material/${storyId}/project${query}`),
      );

    const story = await rendered();
    expect(await projectOf(editor, story.storyId)).toMatchObject({ id: project.id, revision: project.revision });
    // Another user's edit again starts a project of its own; an upload has none.
    expect(await projectOf(other, story.storyId)).toBeNull();
    expect(await projectOf(editor, clips.b)).toBeNull();

    // Saved as version 2 of an uploaded video: its version 2 names the project, its version 1 none.
    const uploaded = (
      await uploadStory(ctx(), editor, {
        libraryId: "material",
        type: "video",
        bytes: makeClip("c.mp4", "testsrc", 2),
        name: "c.mp4",
        mime: "video/mp4",
      })
    ).story.id;
    const draft = await rendered({ libraryId: "material", storyId: uploaded });
    await eventually(
      async () =>
        data<{ progress: number; state: string }>(
          await call(editor, "GET", `/video-trans-tasks?videoUrl=material/${draft.storyId}&type=video`),
        ),
      (value) => value.progress === 100 || value.state === "failed",
      { limitMs: 120_000 },
    );
    const saved = await call(editor, "POST", "/workflow-story-create/newversion/video", {
      libraryId: "material",
      storyId: uploaded,
      fromLibraryId: draft.libraryId,
      fromStoryId: draft.storyId,
    });
    expect(saved.statusCode).toBe(200);
    expect(await projectOf(editor, uploaded)).toMatchObject({ id: project.id });
    expect(await projectOf(editor, uploaded, "?versionNo=1")).toBeNull();
    expect((await call(viewer, "GET", `/video-edit/stories/material/${story.storyId}/project`)).statusCode).toBe(403);
  }, 300_000);

  it("draws a watermark preset's image as the logo (logo.presetId), where the preset puts it", async () => {
    const admin = await createPrincipal(ctx().db, {
      username: `logo-admin-${dialect}`,
      roleId: "administrator",
      admin: true,
    });
    const red = await sharp({ create: { width: 200, height: 80, channels: 4, background: "#ff0000ff" } })
      .png()
      .toBuffer();
    const preset = await call(admin, "POST", "/watermark-presets", {
      name: `台标 ${dialect}`,
      settings: { ...DEFAULT_WATERMARK, position: "upper-right" },
      image: { data: red.toString("base64"), type: "image/png" },
    });
    expect(preset.statusCode, preset.body).toBe(200);
    const presetId = data<{ id: string }>(preset).id;
    const logo = { type: 1, presetId, position: "upper-right", opacity: 100, sizePercent: 25 };
    // Version 1 of a (the 3 s test pattern compared below): an earlier case made a 1 s version 2 of it.
    const firstVersion = { source: { libraryId: "material", storyId: clips.a, versionNo: 1 } };
    const started = await call(editor, "POST", "/video-edit/renders", {
      edl: edl({ clips: [clip(clips.a, 0, 2, firstVersion)], logo, audio: { normalize: false } }),
    });
    expect(started.statusCode, started.body).toBe(200);
    const done = await finished(editor, data<Render>(started).id);
    expect(done).toMatchObject({ state: "done", error: null });
    const file = path.join(dir, "logo-render.mp4");
    fs.writeFileSync(file, (await call(editor, "GET", `/video-edit/renders/${done.id}/file`)).rawPayload);
    // Red pixels in each quarter of the frame at 1 s (320×180): the logo's quarter gains a block of them.
    const quarters = (input: string) => {
      const rgb = execFileSync(
        "ffmpeg",
        ["-v", "error", "-ss", "1", "-i", input, "-frames:v", "1"].concat([
          "-vf",
          "scale=320:180",
          "-f",
          "rawvideo",
          "-pix_fmt",
          "rgb24",
          "-",
        ]),
      );
      const counts = { upperLeft: 0, upperRight: 0, lowerLeft: 0, lowerRight: 0 };
      for (let y = 0; y < 180; y++)
        for (let x = 0; x < 320; x++) {
          const at = (y * 320 + x) * 3;
          if (rgb[at]! < 200 || rgb[at + 1]! > 60 || rgb[at + 2]! > 60) continue;
          counts[`${y < 90 ? "upper" : "lower"}${x < 160 ? "Left" : "Right"}` as keyof typeof counts] += 1;
        }
      return counts;
    };
    const rendered = quarters(file);
    const source = quarters(path.join(dir, "a.mp4"));
    // 25 % of 320 px wide: 80 × 32 px of red (less the edges' chroma blur), in the upper right only.
    expect(rendered.upperRight - source.upperRight).toBeGreaterThan(1500);
    for (const quarter of ["upperLeft", "lowerLeft", "lowerRight"] as const)
      expect(Math.abs(rendered[quarter] - source[quarter])).toBeLessThan(300);
    // A preset without its image any more: the render ends with the reason.
    expect((await call(admin, "DELETE", `/watermark-presets/${presetId}`)).statusCode).toBe(200);
    const orphan = await call(editor, "POST", "/video-edit/renders", {
      edl: edl({ clips: [clip(clips.a, 0, 1)], logo }),
    });
    const failed = await finished(editor, data<Render>(orphan).id);
    expect(failed.state).toBe("failed");
    expect(failed.error).toContain(`the watermark preset ${presetId} has no image`);
  }, 300_000);

  it("cuts a keyframe-only single clip by stream copy; a day later, taken by no story, it is gone", async () => {
    const started = await call(editor, "POST", "/video-edit/renders", {
      edl: edl({ clips: [clip(clips.b, 1, 3)], audio: { normalize: false } }),
    });
    const done = await finished(editor, data<Render>(started).id);
    expect(done).toMatchObject({ state: "done", method: "copy" });

    const { db, blobs, app } = ctx();
    const repository = new VideoEditRepository(db);
    const outputKey = (await repository.findRender(done.id))!.output_key!;
    const blobRows = new BlobsRepository(db);
    const expiry = (hours: number) =>
      renderExpiryJob({
        repository,
        blobs,
        deleteBlobRow: (key, trx) => blobRows.delete(key, trx),
        job: (id) => app.jobs.queue.get(id),
        transaction: (work) => db.kysely.transaction().execute(work),
        clock: () => new Date(Date.now() + hours * 3600_000),
      }).run({}, { signal: new AbortController().signal, progress: async () => {}, attempt: 1, jobId: "test" });
    await expiry(23);
    expect((await call(editor, "GET", `/video-edit/renders/${done.id}`)).statusCode).toBe(200);
    await expiry(25);
    expect((await call(editor, "GET", `/video-edit/renders/${done.id}`)).statusCode).toBe(404);
    expect(await blobRows.find(outputKey)).toBeUndefined();
    expect(await blobs.stat(outputKey)).toBeNull();
  }, 120_000);

  it("ends a render of a source that does not decode with its reason", async () => {
    const started = await call(editor, "POST", "/video-edit/renders", {
      edl: edl({ clips: [clip(clips.broken, 0, 1)] }),
    });
    const failed = await finished(editor, data<Render>(started).id);
    expect(failed.state).toBe("failed");
    expect(failed.error).toMatch(/not a video or audio file|could not/);
  }, 120_000);

  it("cancels a render: ffmpeg stops and nothing is stored", async () => {
    const { db, dataDir } = ctx();
    const blobs = async () => (await db.kysely.selectFrom("blobs").select("key").execute()).length;
    const before = await blobs();
    const long = edl({
      output: { preset: "vertical" },
      // Clip b: clip a is a one-second version 2 by now.
      clips: Array.from({ length: 8 }, () => clip(clips.b, 0, 3, { reframe: { mode: "blur" } })),
    });
    const id = data<Render>(await call(editor, "POST", "/video-edit/renders", { edl: long })).id;
    await eventually(
      () => render(editor, id),
      (value) => (value.state === "running" && value.progress > 0) || value.state === "failed",
      { limitMs: 120_000 },
    );
    expect((await call(editor, "DELETE", `/video-edit/renders/${id}`)).statusCode).toBe(200);
    const cancelled = await finished(editor, id);
    expect(cancelled.state).toBe("cancelled");
    expect((await call(editor, "GET", `/video-edit/renders/${id}/file`)).statusCode).toBe(404);
    expect(await blobs()).toBe(before);
    const work = path.join(dataDir, "tmp", "video-render");
    await eventually(
      async () => (fs.existsSync(work) ? fs.readdirSync(work) : []),
      (entries) => entries.length === 0,
    );
  }, 300_000);

  it("refuses stories the caller cannot read, wrong kinds and EDLs over the limits, naming them", async () => {
    const start = (who: TestPrincipal, body: object) => call(who, "POST", "/video-edit/renders", { edl: body });
    // Another user's draft is not theirs to read.
    expect((await start(other, edl({ clips: [clip(clips.a, 0, 1)] }))).statusCode).toBe(404);
    const unknownLibrary = { ...clip(clips.a, 0, 1), source: { libraryId: "nowhere", storyId: clips.a } };
    expect((await start(editor, edl({ clips: [unknownLibrary] }))).statusCode).toBe(404);
    const photoAsVideo = await start(editor, edl({ clips: [clip(clips.photo, 0, 1)] }));
    expect(photoAsVideo.statusCode).toBe(400);
    expect(photoAsVideo.json().msg).toContain("clips[0].source");
    const tooMany = await start(editor, edl({ clips: Array.from({ length: 201 }, () => clip(clips.a, 0, 1)) }));
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().msg).toContain("at most 200 clips");
    const longTitle = await start(
      editor,
      edl({
        clips: [clip(clips.a, 0, 1)],
        texts: [{ id: "t", kind: "title", text: "长".repeat(501), start: 0, end: 1 }],
      }),
    );
    expect(longTitle.json().msg).toContain("500 characters");
    // A viewer makes no videos.
    expect((await start(viewer, edl({ clips: [clip(clips.a, 0, 1)] }))).statusCode).toBe(403);
  });

  it("autosaves projects per user, refusing a save based on an old revision", async () => {
    const created = await call(editor, "POST", "/video-edit/projects", { kind: "slideshow", edl: edl({ clips: [] }) });
    expect(created.statusCode).toBe(200);
    const project = data<{ id: string; revision: number }>(created);
    const save = (revision: number, title: string) =>
      call(editor, "PUT", `/video-edit/projects/${project.id}`, { revision, edl: edl({ title, clips: [] }) });
    expect(data<{ revision: number }>(await save(1, "一")).revision).toBe(2);
    const stale = await save(1, "二");
    expect(stale.statusCode).toBe(409);
    expect(data<{ title: string }>(await call(editor, "GET", `/video-edit/projects/${project.id}`)).title).toBe("一");
    expect((await call(other, "GET", `/video-edit/projects/${project.id}`)).statusCode).toBe(404);
    const list = data<{ totalElements: number }>(await call(editor, "GET", "/video-edit/projects"));
    expect(list.totalElements).toBeGreaterThanOrEqual(1);
    expect((await call(editor, "DELETE", `/video-edit/projects/${project.id}`)).statusCode).toBe(200);
  });
});
