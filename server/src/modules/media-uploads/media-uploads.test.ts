import { execFileSync } from "node:child_process";
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.js";
import { loadConfig } from "../../config.js";
import { API_PREFIX } from "../../http/error-handler.js";
import { callApi } from "../../test/api-call.js";
import { describeEachDialect, useTestDb } from "../../test/dialects.js";
import { pixelFlood } from "../../test/pixel-flood.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { CORPUS, tusUpload } from "../uploads/uploads.test-support.js";
import { matchesRatio, parseVideoUrl } from "./media-uploads.service.js";

interface StoryView {
  id: string;
  libraryId: string;
  type: string;
  status: string;
  versionNo: number;
  oid: string;
  width: number | null;
  height: number | null;
  coverUrl: string | null;
  processingState: string;
  processingError: string | null;
  properties: Record<string, unknown>;
  files: { role: string; mime: string; versionNo: number; url: string }[];
}

interface VersionView {
  versionNo: number;
  oid: string;
  current: boolean;
  mime: string | null;
  files: { role: string }[];
}

interface Task {
  libraryId: string;
  storyId: string;
  versionNo: number;
  jobId: string | null;
  state: string;
  progress: number;
  error: string | null;
}

interface Cover {
  storyId: string | null;
  coverKey: string;
  coverUrl: string | null;
  width: number;
  height: number;
}

interface Refusal {
  code: number;
  msg: string;
  error: string;
  msgCode?: string;
  msgParams?: Record<string, string>;
}

const dataUrl = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString("base64")}`;

describe("parseVideoUrl and matchesRatio", () => {
  const id = "0f8a3c52-6b1e-4c8e-9a57-2d7f4e1b9c30";
  it("finds the story in our download URLs, absolute or relative, and in libraryId/storyId", () => {
    for (const url of [
      `${API_PREFIX}/stories/download/material/${id}?rendition=proxy`,
      `https://dams.example.org${API_PREFIX}/workflow-story-download/material/${id}`,
      `${API_PREFIX}/stories/material/${id}`,
      `material/${id}`,
    ]) {
      expect(parseVideoUrl(url), url).toEqual({ libraryId: "material", storyId: id });
    }
    expect(() => parseVideoUrl("https://example.org/video.mp4")).toThrow(/must name a story/);
  });
  it("allows a pixel of rounding and no more", () => {
    expect(matchesRatio(1920, 1080, { width: 16, height: 9 })).toBe(true);
    expect(matchesRatio(1919, 1079, { width: 16, height: 9 })).toBe(true);
    expect(matchesRatio(1920, 1082, { width: 16, height: 9 })).toBe(false);
    expect(matchesRatio(640, 480, { width: 16, height: 9 })).toBe(false);
  });
});

/**
 * The image editor's save, the cover cropper, re-transcode and transcode
 * progress through the real app: tus uploads make the stories, the app's own
 * worker runs the real media job (sharp, ffmpeg).
 */
describeEachDialect("media uploads: base64 image, cover, re-transcode, transcode progress", (dialect) => {
  const db = useTestDb(dialect);
  const media = fs.mkdtempSync(path.join(os.tmpdir(), "dams-media-uploads-media-"));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dams-media-uploads-"));
  const BODY_LIMIT = 1024 * 1024;
  let app: FastifyInstance;
  let base: string;
  let editor: TestPrincipal;
  let viewer: TestPrincipal;
  let contributor: TestPrincipal;

  beforeAll(async () => {
    const config = loadConfig({
      DAMS_DATA_DIR: dataDir,
      DAMS_WEB_DIR: path.join(dataDir, "web"),
      DAMS_LOG_LEVEL: "silent",
      DAMS_JOBS_POLL_MS: "100",
      DAMS_JOBS_PROGRESS_MS: "100",
      DAMS_IMAGE_BODY_LIMIT: String(BODY_LIMIT),
    });
    app = await buildApp({ config, db: db(), logger: false });
    await app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    editor = await createPrincipal(db(), { username: "media-editor", roleId: "editor" });
    viewer = await createPrincipal(db(), { username: "media-viewer", roleId: "viewer" });
    contributor = await createPrincipal(db(), { username: "media-contributor", roleId: "contributor" });
    const ffmpeg = (args: string[]) => execFileSync("ffmpeg", ["-v", "error", "-y", ...args]);
    ffmpeg([
      ...["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=2"],
      ...["-f", "lavfi", "-i", "sine=frequency=440:duration=2"],
      ...["-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", path.join(media, "clip.mp4")],
    ]);
    ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x180", "-frames:v", "1", path.join(media, "cover-16x9.png")]);
    ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=256x144", "-frames:v", "1", path.join(media, "cover-small.jpg")]);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    fs.rmSync(media, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** The worker starts late: the first test watches a job while it is still queued. */
  const startWorker = () => app.jobs.worker.start();

  async function upload(file: string, libraryId: string): Promise<{ libraryId: string; storyId: string }> {
    const result = await tusUpload(base, editor.token, fs.readFileSync(file), {
      metadata: { filename: path.basename(file), libraryId },
    });
    return result.body.data.result as { libraryId: string; storyId: string };
  }

  const story = (ref: { libraryId: string; storyId: string }) =>
    callApi<StoryView>(app, editor, "GET", `/stories/${ref.libraryId}/${ref.storyId}`);

  async function processed(ref: { libraryId: string; storyId: string }): Promise<StoryView> {
    for (let attempt = 0; attempt < 1200; attempt++) {
      const current = await story(ref);
      if (current.processingState === "done" || current.processingState === "failed") return current;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`story ${ref.storyId} was not processed in time`);
  }

  async function post<T>(caller: TestPrincipal, url: string, payload: object, status = 200): Promise<T> {
    const response = await app.inject({ method: "POST", url: `${API_PREFIX}${url}`, headers: caller.headers, payload });
    expect(response.statusCode, `POST ${url}: ${response.body}`).toBe(status);
    const body = response.json() as { data: T };
    return (status === 200 ? body.data : body) as T;
  }

  const task = (caller: TestPrincipal, videoUrl: string, status = 200) =>
    callApi<Task>(
      app,
      caller,
      "GET",
      `/video-trans-tasks?videoUrl=${encodeURIComponent(videoUrl)}&type=video`,
      undefined,
      status,
    );

  it("re-transcode queues a new job, refuses a second one while it is active, and progress climbs to 100", async () => {
    const video = await upload(path.join(media, "clip.mp4"), "material");
    const downloadUrl = `${API_PREFIX}/stories/download/material/${video.storyId}?rendition=proxy`;
    // The upload queued its processing; the worker is not running yet.
    const first = await task(editor, downloadUrl);
    expect(first).toMatchObject({ storyId: video.storyId, versionNo: 1, state: "queued", progress: 0 });
    const busy = await post<Refusal>(editor, "/upload-files/re-transcode", video, 409);
    expect(busy.error).toBe("processing_active");

    await app.jobs.queue.cancel(first.jobId!);
    expect(await task(editor, `material/${video.storyId}`)).toMatchObject({ state: "cancelled", jobId: first.jobId });

    const queued = await post<Task>(editor, "/upload-files/re-transcode", video);
    expect(queued).toMatchObject({ state: "queued", progress: 0, versionNo: 1 });
    expect(queued.jobId).not.toBe(first.jobId);
    expect((await post<Refusal>(editor, "/upload-files/re-transcode", video, 409)).msg).toMatch(/already queued/);

    startWorker();
    const seen: Task[] = [await task(editor, downloadUrl)];
    while (seen.at(-1)!.progress < 100 && !["failed", "cancelled"].includes(seen.at(-1)!.state)) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      seen.push(await task(viewer, downloadUrl));
    }
    const last = seen.at(-1)!;
    expect(last, last.error ?? "").toMatchObject({ state: "done", progress: 100, jobId: queued.jobId });
    const progress = seen.map((one) => one.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress[0]).toBeLessThan(100);
    const done = await story(video);
    expect(done.files.map((file) => file.role)).toContain("proxy");

    // Over (the task reports 100 before the story's processing state is written, and the job row ends after
    // its handler returns): once the job has ended, a new run may start again.
    await processed(video);
    let again: Task | undefined;
    for (let attempt = 0; attempt < 600 && !again; attempt++) {
      const response = await app.inject({
        method: "POST",
        url: `${API_PREFIX}/upload-files/re-transcode`,
        headers: editor.headers,
        payload: video,
      });
      if (response.statusCode === 200) {
        again = (response.json() as { data: Task }).data;
      } else {
        // Only the finished run may still be ending; anything else is a failure.
        expect(response.json(), response.body).toMatchObject({ error: "processing_active" });
        expect(response.body).toContain(queued.jobId!);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    if (!again) throw new Error("the finished re-transcode job never ended");
    expect(again.jobId).not.toBe(queued.jobId);
    expect((await processed(video)).processingState).toBe("done");
  }, 120_000);

  it("the image editor's save makes version 2 of a committed photo; version 1 and its files are kept", async () => {
    startWorker();
    const photo = await upload(path.join(CORPUS, "jpg/Canon_40D.jpg"), "product");
    const before = await processed(photo);
    await post(editor, "/workflow-story-create/photo/commit", { libraryId: "product", storyIds: [photo.storyId] });
    const edited = fs.readFileSync(path.join(CORPUS, "jpg/gps/DSCN0010.jpg"));
    const saved = await post<StoryView>(editor, "/upload-images/base64image", {
      base64String: dataUrl("image/jpeg", edited),
      ...photo,
    });
    expect(saved.versionNo).toBe(2);
    expect(saved.properties.lastVersion).toBe(before.oid);
    expect(saved.oid).not.toBe(before.oid);
    const after = await processed(photo);
    expect(after.processingState, after.processingError ?? "").toBe("done");
    expect([after.width, after.height]).toEqual([640, 480]);
    expect(after.files.filter((file) => file.versionNo === 2).map((file) => file.role)).toContain("thumbnail");

    const versions = await callApi<VersionView[]>(app, editor, "GET", `/stories/product/${photo.storyId}/versions`);
    expect(versions.map((version) => [version.versionNo, version.current])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect(versions[0]!.oid).toBe(before.oid);
    expect(versions[0]!.files.map((file) => file.role)).toEqual(expect.arrayContaining(["original", "thumbnail"]));
    const original = await app.inject({
      method: "GET",
      url: `${API_PREFIX}/stories/download/product/${photo.storyId}?rendition=original`,
      headers: editor.headers,
    });
    // A download carries the story's metadata written in (docs/media.md, "Metadata on the way out"): the same pixels.
    const pixels = (bytes: Buffer) => sharp(bytes).raw().toBuffer();
    expect((await pixels(original.rawPayload)).equals(await pixels(edited))).toBe(true);
    const v1 = await app.inject({
      method: "GET",
      url: `${API_PREFIX}/stories/download/product/${photo.storyId}?rendition=original&versionNo=1`,
      headers: editor.headers,
    });
    expect(
      (await pixels(v1.rawPayload)).equals(await pixels(fs.readFileSync(path.join(CORPUS, "jpg/Canon_40D.jpg")))),
    ).toBe(true);

    const actions = await callApi<{ content: { action: string; username: string | null }[] }>(
      app,
      editor,
      "GET",
      `/story-actions?libraryId=product&storyId=${photo.storyId}`,
    );
    expect(actions.content).toContainEqual(
      expect.objectContaining({ action: "new-version", username: "media-editor" }),
    );
  }, 60_000);

  it("a draft's edited image (bare base64 PNG) becomes version 2 and is processed at once", async () => {
    startWorker();
    const photo = await upload(path.join(CORPUS, "jpg/Nikon_D70.jpg"), "product");
    await processed(photo);
    const saved = await post<StoryView>(editor, "/upload-images/base64image", {
      base64String: fs.readFileSync(path.join(media, "cover-16x9.png")).toString("base64"),
      ...photo,
    });
    expect([saved.versionNo, saved.status]).toEqual([2, "draft"]);
    expect(saved.processingState).not.toBe("none");
    const after = await processed(photo);
    expect(after.processingState, after.processingError ?? "").toBe("done");
    expect([after.width, after.height]).toEqual([320, 180]);
    expect(after.files.find((file) => file.role === "original")!.mime).toBe("image/png");
  }, 60_000);

  it("refuses what is not a JPEG, PNG or WebP image, and what is too large, with a message; no version is added", async () => {
    const photo = await upload(path.join(CORPUS, "jpg/Pentax_K10D.jpg"), "product");
    const save = (base64String: string, status: number) =>
      post<Refusal>(editor, "/upload-images/base64image", { base64String, ...photo }, status);
    const text = (value: string) => Buffer.from(value).toString("base64");

    const html = await save(`data:image/png;base64,${text("<!doctype html><script>alert(1)</script>")}`, 415);
    expect(html.msg).toMatch(/HTML document.*only JPEG, PNG and WebP/);
    // Named for the web app's translation: what the file is, without the list of accepted uploads.
    expect([html.msgCode, html.msgParams]).toEqual(["image.refused", { content: "html" }]);
    const svg = await save(
      dataUrl("image/svg+xml", Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')),
      415,
    );
    expect(svg.msg).toMatch(/SVG image/);
    const video = await save(dataUrl("image/jpeg", fs.readFileSync(path.join(media, "clip.mp4"))), 415);
    expect(video.msg).toMatch(/video\/mp4; only JPEG, PNG and WebP/);
    expect([video.msgCode, video.msgParams]).toEqual(["image.refusedType", { type: "MP4", mime: "video/mp4" }]);
    expect((await save("not base64 at all!", 400)).error).toBe("invalid_base64");
    const flood = await save(dataUrl("image/png", pixelFlood()), 422);
    expect([flood.error, flood.msg]).toEqual(["media_too_large", expect.stringMatching(/more pixels than allowed/)]);
    const truncated = fs.readFileSync(path.join(CORPUS, "jpg/Canon_40D.jpg"));
    expect((await save(dataUrl("image/jpeg", truncated.subarray(0, truncated.length / 2)), 422)).error).toBe(
      "media_corrupt",
    );
    const huge = await save(Buffer.alloc(BODY_LIMIT).toString("base64"), 413);
    expect(huge.msg).toMatch(/larger than the limit/);

    expect((await story(photo)).versionNo).toBe(1);
  });

  it("sets a cropped cover on a video, refuses a wrong ratio, and attaches a cover stored before the story", async () => {
    startWorker();
    const video = await upload(path.join(media, "clip.mp4"), "material");
    const png = fs.readFileSync(path.join(media, "cover-16x9.png"));
    const cover = await post<Cover>(editor, "/upload-images/cover", {
      base64String: dataUrl("image/png", png),
      ratio: "16:9",
      ...video,
    });
    expect(cover).toMatchObject({ storyId: video.storyId, width: 320, height: 180 });
    const served = await app.inject({ method: "GET", url: cover.coverUrl!, headers: viewer.headers });
    expect([served.statusCode, served.headers["content-type"]]).toEqual([200, "image/png"]);
    expect(served.rawPayload.equals(png)).toBe(true);
    expect((await story(video)).coverUrl).toBe(cover.coverUrl);

    const wrong = await post<Refusal>(
      editor,
      "/upload-images/cover",
      {
        base64String: dataUrl("image/jpeg", fs.readFileSync(path.join(CORPUS, "jpg/Canon_40D.jpg"))),
        ratio: "16:9",
        ...video,
      },
      400,
    );
    expect([wrong.error, wrong.msg]).toEqual(["wrong_ratio", expect.stringMatching(/not 16:9/)]);

    // Before the story exists: stored, answered with a key; attached later, replacing the first cover.
    const jpeg = fs.readFileSync(path.join(media, "cover-small.jpg"));
    const stored = await post<Cover>(editor, "/upload-images/cover", {
      base64String: dataUrl("image/jpeg", jpeg),
      ratio: "16:9",
      libraryId: "material",
    });
    expect(stored).toMatchObject({ storyId: null, coverUrl: null, width: 256, height: 144 });
    const stranger = await createPrincipal(db(), { username: `media-stranger-${dialect}`, roleId: "editor" });
    const notYours = await post<Refusal>(
      stranger,
      "/upload-images/cover",
      { coverKey: stored.coverKey, ...video },
      404,
    );
    expect(notYours.msg).toMatch(/no cover of yours/);
    const attached = await post<Cover>(editor, "/upload-images/cover", { coverKey: stored.coverKey, ...video });
    expect(attached.coverKey).toBe(stored.coverKey);
    const now = await app.inject({ method: "GET", url: attached.coverUrl!, headers: editor.headers });
    expect(now.rawPayload.equals(jpeg)).toBe(true);
    // The new cover has a new URL (the old one may sit in a cache), and the story answers it.
    expect(attached.coverUrl).not.toBe(cover.coverUrl);
    expect((await story(video)).coverUrl).toBe(attached.coverUrl);
    const coverActions = await callApi<{ content: { action: string; username: string | null }[] }>(
      app,
      editor,
      "GET",
      `/story-actions?libraryId=material&storyId=${video.storyId}`,
    );
    expect(coverActions.content.filter((action) => action.action === "edit")).toHaveLength(2);
    // The replaced cover is gone, with its registry row.
    const rows = await db().kysely.selectFrom("blobs").select("key").where("key", "=", cover.coverKey).execute();
    expect(rows).toHaveLength(0);

    // A composite (no file of its own) takes a cover too.
    const composite = await post<StoryView>(editor, "/workflow-story-create/composite", {
      libraryId: "material",
      title: "package",
      members: [video],
    });
    const packaged = await post<Cover>(editor, "/upload-images/cover", {
      base64String: dataUrl("image/png", png),
      ratio: "16:9",
      libraryId: "material",
      storyId: composite.id,
    });
    const compositeCover = await app.inject({ method: "GET", url: packaged.coverUrl!, headers: editor.headers });
    expect(compositeCover.rawPayload.equals(png)).toBe(true);

    const photo = await upload(path.join(CORPUS, "jpg/Canon_40D.jpg"), "material");
    const onPhoto = await post<Refusal>(
      editor,
      "/upload-images/cover",
      { base64String: dataUrl("image/png", png), ratio: "16:9", ...photo },
      400,
    );
    expect(onPhoto.error).toBe("wrong_type");
  }, 60_000);

  it("a viewer may watch progress but not change anything (403); without the library it is 404", async () => {
    const video = await upload(path.join(media, "clip.mp4"), "department");
    const png = dataUrl("image/png", fs.readFileSync(path.join(media, "cover-16x9.png")));
    expect((await task(viewer, `department/${video.storyId}`)).storyId).toBe(video.storyId);
    await post(viewer, "/upload-files/re-transcode", video, 403);
    await post(viewer, "/upload-images/base64image", { base64String: png, ...video }, 403);
    await post(viewer, "/upload-images/cover", { base64String: png, ratio: "16:9", ...video }, 403);
    // The contributor edits stories, but holds no grant on the department library.
    await post(contributor, "/upload-files/re-transcode", video, 404);
    await post(contributor, "/upload-images/cover", { base64String: png, ratio: "16:9", ...video }, 404);
    await post(contributor, "/upload-images/base64image", { base64String: png, ...video }, 404);
    await task(contributor, `department/${video.storyId}`, 404);
  });
});
