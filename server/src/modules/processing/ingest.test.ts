import { execFileSync } from "node:child_process";
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildApp } from "../../app.js";
import { type Config, loadConfig } from "../../config.js";
import { API_PREFIX } from "../../http/error-handler.js";
import { describeEachDialect, useTestDb } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { buildBlobStore } from "../blobs/build-blob-store.js";
import { CORPUS, tusUpload } from "../uploads/uploads.test-support.js";

interface StoryView {
  id: string;
  libraryId: string;
  status: string;
  title: string;
  width: number | null;
  height: number | null;
  duration: number | null;
  capturedAt: string | null;
  gps: { latitude: number; longitude: number } | null;
  perceptualHash: string | null;
  processingState: string;
  processingError: string | null;
  properties: Record<string, unknown>;
  thumbnailUrl: string | null;
  files: { role: string; mime: string; size: number; width: number | null; height: number | null }[];
}

interface Uploaded {
  libraryId: string;
  storyId: string;
  versionNo: number;
  duplicates: { storyId: string }[];
}

/**
 * The ingest path end to end, through the real parts: tus-js-client uploads
 * into the running app, the upload becomes a draft story, the durable queue
 * runs the media job in the app's own worker, renditions land in the blob
 * store and metadata on the story.
 */
describeEachDialect("ingest: upload → story → media processing", (dialect) => {
  const db = useTestDb(dialect);
  const media = fs.mkdtempSync(path.join(os.tmpdir(), "dams-ingest-media-"));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dams-ingest-"));
  let app: FastifyInstance;
  let base: string;
  let editor: TestPrincipal;
  let config: Config;

  beforeAll(async () => {
    config = loadConfig({
      DAMS_DATA_DIR: dataDir,
      DAMS_WEB_DIR: path.join(dataDir, "web"),
      DAMS_LOG_LEVEL: "silent",
      DAMS_JOBS_POLL_MS: "100",
      DAMS_JOBS_BACKOFF_MS: "200",
    });
    app = await buildApp({ config, db: db(), logger: false });
    await app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    app.jobs.worker.start();
    editor = await createPrincipal(db(), { username: "ingest-editor", roleId: "editor" });
    const ffmpeg = (args: string[]) => execFileSync("ffmpeg", ["-v", "error", "-y", ...args]);
    ffmpeg([
      ...["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=2"],
      ...["-f", "lavfi", "-i", "sine=frequency=440:duration=2"],
      ...["-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", path.join(media, "clip.mp4")],
    ]);
    ffmpeg(["-f", "lavfi", "-i", "sine=frequency=330:duration=3", "-c:a", "libmp3lame", path.join(media, "tone.mp3")]);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    fs.rmSync(media, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function get<T>(url: string): Promise<T> {
    const response = await app.inject({ method: "GET", url: `${API_PREFIX}${url}`, headers: editor.headers });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { data: T }).data;
  }

  async function upload(file: string, metadata: Record<string, string> = {}): Promise<Uploaded> {
    const result = await tusUpload(base, editor.token, fs.readFileSync(file), {
      metadata: { filename: path.basename(file), ...metadata },
    });
    return result.body.data.result as Uploaded;
  }

  /** Polls the story until its media job has ended (done or failed). */
  async function processed(uploaded: Uploaded): Promise<StoryView> {
    for (let attempt = 0; attempt < 600; attempt++) {
      const story = await get<StoryView>(`/stories/${uploaded.libraryId}/${uploaded.storyId}`);
      if (story.processingState === "done" || story.processingState === "failed") return story;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`story ${uploaded.storyId} was not processed in time`);
  }

  const roles = (story: StoryView) => story.files.map((file) => file.role).sort();

  it("a camera JPEG becomes a draft with thumbnails, its capture time, camera, GPS and perceptual hash", async () => {
    const uploaded = await upload(path.join(CORPUS, "jpg/gps/DSCN0010.jpg"), { libraryId: "product" });
    const story = await processed(uploaded);
    expect(story.processingState, story.processingError ?? "").toBe("done");
    expect(story.status).toBe("draft");
    expect(roles(story)).toEqual(["original", "preview", "preview-webp", "thumbnail", "thumbnail-webp"]);
    expect(story.capturedAt).toMatch(/^2008-10-22T16:28:39/);
    expect(story.properties.cameraModel).toBe("COOLPIX P6000");
    expect(story.gps?.latitude).toBeCloseTo(43.46744833, 6);
    expect(story.gps?.longitude).toBeCloseTo(11.88512667, 6);
    expect([story.width, story.height]).toEqual([640, 480]);
    expect(story.perceptualHash).toMatch(/^[0-9a-f]{16}$/);
    const thumbnail = story.files.find((file) => file.role === "thumbnail")!;
    expect([thumbnail.width, thumbnail.height, thumbnail.mime]).toEqual([320, 320, "image/jpeg"]);
    expect(story.thumbnailUrl).toBeTruthy();

    // The thumbnail is served as an image that cannot run script in our origin.
    const served = await app.inject({ method: "GET", url: story.thumbnailUrl!, headers: editor.headers });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/jpeg");
    expect(served.headers["x-content-type-options"]).toBe("nosniff");
    expect(served.rawPayload.subarray(0, 2).toString("hex")).toBe("ffd8");

    // Committing does not process it a second time.
    const commit = await app.inject({
      method: "POST",
      url: `${API_PREFIX}/workflow-story-create/photo/commit`,
      headers: editor.headers,
      payload: { libraryId: "product", storyIds: [story.id] },
    });
    expect(commit.statusCode, commit.body).toBe(200);
    const jobs = await db()
      .kysely.selectFrom("jobs")
      .select("id")
      .where("name", "=", "stories.process")
      .where(sql`cast(payload as text)`, "like", `%${story.id}%`)
      .execute();
    expect(jobs).toHaveLength(1);
  });

  it("turns a portrait photo upright (EXIF orientation 6): 450 × 600", async () => {
    const story = await processed(await upload(path.join(CORPUS, "jpg/orientation/portrait_6.jpg")));
    expect(story.processingState, story.processingError ?? "").toBe("done");
    expect([story.width, story.height]).toEqual([450, 600]);
    const preview = story.files.find((file) => file.role === "preview")!;
    expect([preview.width, preview.height]).toEqual([450, 600]);
  });

  it("a video gets its poster, thumbnail, scrubbing strip and web proxy; the duration is known", async () => {
    const story = await processed(await upload(path.join(media, "clip.mp4"), { libraryId: "material" }));
    expect(story.processingState, story.processingError ?? "").toBe("done");
    expect(roles(story)).toEqual(["original", "poster", "proxy", "strip", "strip-index", "thumbnail"]);
    expect(story.duration).toBeCloseTo(2, 0);
    expect([story.width, story.height]).toEqual([320, 240]);
    expect(story.files.find((file) => file.role === "proxy")!.mime).toBe("video/mp4");
  });

  it("audio gets its proxy and waveform peaks", async () => {
    const story = await processed(await upload(path.join(media, "tone.mp3")));
    expect(story.processingState, story.processingError ?? "").toBe("done");
    expect(roles(story)).toEqual(["original", "proxy", "waveform"]);
    expect(story.duration).toBeCloseTo(3, 0);
  });

  it("a damaged JPEG ends as failed with its reason; the worker goes on with the next upload", async () => {
    const broken = await processed(await upload(path.join(CORPUS, "jpg/corrupted.jpg")));
    expect(broken.processingState).toBe("failed");
    expect(broken.processingError).toMatch(/\w/);
    // The story says failed as the handler ends; the queue marks the job dead a moment later.
    let job = { state: "", last_error: null as string | null };
    for (let attempt = 0; attempt < 100 && job.state !== "dead"; attempt++) {
      job = await db()
        .kysely.selectFrom("jobs")
        .select(["state", "last_error"])
        .where(sql`cast(payload as text)`, "like", `%${broken.id}%`)
        .executeTakeFirstOrThrow();
      if (job.state !== "dead") await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(job.state).toBe("dead");
    expect(job.last_error).toBe(broken.processingError);

    const next = await processed(await upload(path.join(CORPUS, "jpg/Canon_40D.jpg")));
    expect(next.processingState).toBe("done");
  });

  it("deleting a story removes its original, its renditions and its registry row", async () => {
    const result = await tusUpload(base, editor.token, fs.readFileSync(path.join(CORPUS, "jpg/Pentax_K10D.jpg")), {
      metadata: { filename: "Pentax_K10D.jpg" },
    });
    const uploaded = result.body.data.result as Uploaded;
    const story = await processed(uploaded);
    const blobKey = result.body.data.upload.blobKey;
    const keys = await db()
      .kysely.selectFrom("story_files")
      .select("blob_key")
      .where("story_id", "=", story.id)
      .execute();
    expect(keys.length).toBe(5);
    const removed = await app.inject({
      method: "DELETE",
      url: `${API_PREFIX}/workflow-story-delete/${story.libraryId}/${story.id}`,
      headers: editor.headers,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await db().kysely.selectFrom("blobs").select("key").where("key", "=", blobKey).execute()).toEqual([]);
    const store = buildBlobStore(config.storage);
    for (const { blob_key } of keys) expect(await store.stat(blob_key)).toBeNull();
  });

  it("says so when the same file is already in the library, and keeps both", async () => {
    const first = await upload(path.join(CORPUS, "jpg/Nikon_D70.jpg"), { libraryId: "product" });
    const second = await upload(path.join(CORPUS, "jpg/Nikon_D70.jpg"), { libraryId: "product" });
    expect(second.storyId).not.toBe(first.storyId);
    expect(second.duplicates.map((duplicate) => duplicate.storyId)).toContain(first.storyId);
  });

  it("refuses malformed list metadata with 400 naming the field before any byte, and keeps good lists", async () => {
    const photo = fs.readFileSync(path.join(CORPUS, "jpg/Sony_HDR-HC3.jpg"));
    const create = (metadata: Record<string, string | Buffer>) =>
      fetch(`${base}${API_PREFIX}/uploads`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${editor.token}`,
          "tus-resumable": "1.0.0",
          "upload-length": String(photo.length),
          "upload-metadata": Object.entries(metadata)
            .map(([key, value]) => `${key} ${Buffer.from(value).toString("base64")}`)
            .join(","),
        },
      });
    const uploadsDir = path.join(dataDir, "uploads");
    const before = fs.existsSync(uploadsDir) ? fs.readdirSync(uploadsDir).length : 0;
    for (const [field, value, error] of [
      ["keywords", "[bad", "invalid"],
      ["tags", '["a", 1]', "invalid"],
      ["authors", "[{}]", "invalid"],
      ["keywords", Buffer.from([0x5b, 0xff, 0xfe, 0x5d]), "invalid_utf8"],
    ] as const) {
      const response = await create({ filename: "x.jpg", [field]: value });
      const body = await response.json();
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(body).toMatchObject({ code: 400, error });
      expect(body.msg).toContain(`Upload-Metadata ${field}`);
      expect(response.headers.get("location")).toBeNull();
    }
    // Nothing was created for them.
    expect(fs.existsSync(uploadsDir) ? fs.readdirSync(uploadsDir).length : 0).toBe(before);

    const uploaded = await upload(path.join(CORPUS, "jpg/Sony_HDR-HC3.jpg"), {
      keywords: '["台风", "Fish, Chips"]',
      tags: "洪水, 救援",
      authors: "[]",
    });
    const story = await get<StoryView & { keywords: string[]; tags: string[]; authors: string[] }>(
      `/stories/${uploaded.libraryId}/${uploaded.storyId}`,
    );
    expect([story.keywords, story.tags, story.authors]).toEqual([["台风", "Fish, Chips"], ["洪水", "救援"], []]);
  });
});
