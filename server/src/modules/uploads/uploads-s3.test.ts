import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notificationsReady } from "../../db/notifications.js";
import { describeEachDialect, useTestDb, useTestDbTwice } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import {
  rgwAvailable,
  rgwClient,
  startRgwBucket,
  startTestS3Server,
  type TestS3Server,
} from "../../test/s3-servers.js";
import { BlobsRepository } from "../blobs/blobs.repository.js";
import { S3BlobStore } from "../blobs/s3-blob-store.js";
import { UPLOAD_LIFETIME_MS } from "./hashing-file-store.js";
import { S3UploadStaging } from "./s3-upload-staging.js";
import {
  CORPUS,
  createUpload,
  interruptedPatch,
  offsetOf,
  patchHeaders,
  postWhole,
  type RunningApp,
  sha256,
  startApp,
  storedBytes,
  temporaryDataDir,
  tusHeaders,
  tusUpload,
} from "./uploads.test-support.js";

const nokia = fs.readFileSync(path.join(CORPUS, "jpg/mobile/HMD_Nokia_8.3_5G.jpg"));

function s3Env(server: TestS3Server, extra: Record<string, string> = {}): Record<string, string> {
  const { config } = server;
  return {
    DAMS_STORAGE: "s3",
    S3_BUCKET: config.bucket,
    S3_ENDPOINT: config.endpoint!,
    S3_REGION: config.region,
    S3_ACCESS_KEY_ID: config.credentials!.accessKeyId,
    S3_SECRET_ACCESS_KEY: config.credentials!.secretAccessKey,
    S3_FORCE_PATH_STYLE: "true",
    ...extra,
  };
}

/** A JPEG (so it passes the content check) grown to `size` bytes with a seeded pattern after its end. */
function largeJpeg(size: number): Buffer<ArrayBuffer> {
  const file = Buffer.alloc(size);
  nokia.copy(file);
  for (let index = nokia.length; index < size; index++) file[index] = (index * 2654435761) >>> 24;
  return file;
}

async function keysUnder(bucket: string, prefix: string): Promise<string[]> {
  const page = await rgwClient().send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
  return (page.Contents ?? []).map((object) => object.Key!).sort();
}

/** A PATCH that sends `bytes` and then stalls with the connection open, like a client gone half-open. */
function stalledPatch(url: string, token: string, file: Buffer, bytes: number) {
  const request = http.request(url, {
    method: "PATCH",
    headers: tusHeaders(token, {
      "upload-offset": "0",
      "content-type": "application/offset+octet-stream",
      "content-length": String(file.length),
    }),
  });
  const answered = new Promise<number>((resolve) => {
    request.on("response", (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on("error", () => resolve(0));
  });
  request.write(file.subarray(0, bytes));
  return { answered, destroy: () => request.destroy() };
}

describe("tus uploads on a directory, into S3 (s3rver, a quick fake)", () => {
  const db = useTestDb("sqlite");
  const dataDir = temporaryDataDir();
  let s3: TestS3Server;
  let running: RunningApp;
  let carol: TestPrincipal;

  beforeAll(async () => {
    s3 = await startTestS3Server();
    running = await startApp(db(), dataDir, s3Env(s3, { DAMS_UPLOADS_STORE: "directory" }));
    carol = await createPrincipal(db(), { username: "carol", roleId: "contributor" });
  });
  afterAll(async () => {
    await running.app.close();
    await s3.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("resumes an interrupted upload and stores the exact bytes in the bucket, leaving nothing on the disk", async () => {
    const url = await createUpload(running.base, carol.token, nokia.length, { filename: "to-s3.jpg" });
    await interruptedPatch(url, carol.token, nokia, 0, 500_000);
    const done = await tusUpload(running.base, carol.token, nokia, { uploadUrl: url });
    const { blobKey, sha256: stored } = done.body.data.upload;
    expect(stored).toBe(sha256(nokia));
    expect(sha256(await storedBytes(running, blobKey))).toBe(sha256(nokia));
    // No bytes left on the disk: at most the empty `.moving/` the staging moves its links through.
    const staged = running.config.uploads.directory;
    const left = fs
      .readdirSync(staged)
      .flatMap((name) => (name === ".moving" ? fs.readdirSync(path.join(staged, name)) : [name]));
    expect(left).toEqual([]);
    expect(await new BlobsRepository(db()).find(blobKey)).toMatchObject({ size: nokia.length, kind: "photo" });
  });

  it("puts a small file sent whole in its creation POST straight into the bucket, nothing staged", async () => {
    const staged = running.config.uploads.directory;
    const before = fs.existsSync(staged) ? fs.readdirSync(staged) : [];
    const answer = await postWhole(running.base, carol.token, nokia, { filename: "whole-to-s3.jpg" });
    expect(answer.status).toBe(201);
    const { blobKey, sha256: stored } = answer.body.data.upload;
    expect(stored).toBe(sha256(nokia));
    expect(sha256(await storedBytes(running, blobKey))).toBe(sha256(nokia));
    expect(fs.existsSync(staged) ? fs.readdirSync(staged) : []).toEqual(before);
  });
});

describe.skipIf(!rgwAvailable())("tus uploads in S3 (Ceph RGW)", () => {
  describeEachDialect("two API nodes", (dialect) => {
    const dbs = useTestDbTwice(dialect);
    const dataDirs = [temporaryDataDir(), temporaryDataDir()];
    let bucket: TestS3Server;
    let nodes: RunningApp[];
    let dave: TestPrincipal;

    beforeAll(async () => {
      bucket = await startRgwBucket();
      const { db, other } = dbs();
      // SQLite is one node: both apps share its connection (and its notices) there.
      const second = dialect === "postgres" ? other : db;
      nodes = [await startApp(db, dataDirs[0]!, s3Env(bucket)), await startApp(second, dataDirs[1]!, s3Env(bucket))];
      await notificationsReady(db.notifications);
      await notificationsReady(second.notifications);
      dave = await createPrincipal(db, { username: "dave", roleId: "contributor" });
    });
    afterAll(async () => {
      for (const node of nodes ?? []) await node.app.close();
      await bucket.close();
      for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
    });

    it("keeps the upload in the bucket, resumes it on the other node and moves it to its blob key", async () => {
      const [a, b] = nodes as [RunningApp, RunningApp];
      expect(a.config.uploads.store).toBe("s3");
      const url = await createUpload(a.base, dave.token, nokia.length, { filename: "moved.jpg" });
      expect(new URL(url).pathname).toMatch(/\/uploads\/[0-9a-f]{32}$/);
      const first = await fetch(url, {
        method: "PATCH",
        headers: patchHeaders(dave.token, 0),
        body: nokia.subarray(0, 300_000),
      });
      expect(first.status).toBe(204);
      // A PATCH cut off mid-body: the S3 store may keep its bytes or drop them; HEAD says which.
      await interruptedPatch(url, dave.token, nokia, 300_000, 300_000);
      const onB = `${b.base}${new URL(url).pathname}`;
      const offset = await offsetOf(onB, dave.token);
      expect(offset).toBeGreaterThanOrEqual(300_000);
      expect(await offsetOf(url, dave.token)).toBe(offset);
      // The running hash is on node A; node B reads the object back for the SHA-256.
      const done = await tusUpload(b.base, dave.token, nokia, { uploadUrl: onB });
      const { blobKey, sha256: stored } = done.body.data.upload;
      expect(stored).toBe(sha256(nokia));
      expect(sha256(await storedBytes(b, blobKey))).toBe(sha256(nokia));
      expect(await keysUnder(bucket.config.bucket, "uploads/")).toEqual([]);
      // Nothing of the upload was ever on either node's disk.
      for (const node of nodes) expect(fs.existsSync(node.config.uploads.directory)).toBe(false);
    });

    it("serves the PATCHes of one upload alternately on both nodes, to the exact bytes", async () => {
      const file = largeJpeg(23 * 1024 * 1024 + 5);
      const url = await createUpload(nodes[0]!.base, dave.token, file.length, { filename: "alternating.jpg" });
      const segment = new URL(url).pathname;
      const chunk = 6 * 1024 * 1024 + 1;
      let offset = 0;
      let last: Response | undefined;
      for (let turn = 0; offset < file.length; turn++) {
        const node = nodes[turn % 2]!;
        last = await fetch(`${node.base}${segment}`, {
          method: "PATCH",
          headers: patchHeaders(dave.token, offset),
          body: file.subarray(offset, offset + chunk),
        });
        expect([200, 204], await last.clone().text()).toContain(last.status);
        offset = Number(last.headers.get("upload-offset"));
      }
      const body = (await last!.json()) as { data: { upload: { blobKey: string; sha256: string } } };
      expect(body.data.upload.sha256).toBe(sha256(file));
      expect(sha256(await storedBytes(nodes[1]!, body.data.upload.blobKey))).toBe(sha256(file));
    });

    it("takes over an upload whose PATCH stalls on the other node: that request lets go at once", async () => {
      const [a, b] = nodes as [RunningApp, RunningApp];
      const file = largeJpeg(8 * 1024 * 1024);
      const url = await createUpload(a.base, dave.token, file.length, { filename: "stalled.jpg" });
      const stalled = stalledPatch(url, dave.token, file, 1024 * 1024);
      // Wait until node A has the lock (its row exists), then ask node B.
      const { db } = dbs();
      const deadline = Date.now() + 15_000;
      while ((await db.kysely.selectFrom("upload_locks").select("upload_id").execute()).length === 0) {
        if (Date.now() > deadline) throw new Error("node A never took the lock");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const onB = `${b.base}${new URL(url).pathname}`;
      const resumeAt = await offsetOf(onB, dave.token);
      stalled.destroy();
      await stalled.answered;
      const done = await tusUpload(b.base, dave.token, file, { uploadUrl: onB });
      expect(resumeAt).toBeLessThanOrEqual(1024 * 1024);
      expect(done.body.data.upload.sha256).toBe(sha256(file));
    });

    it("removes abandoned uploads from the bucket after their lifetime, and only those", async () => {
      const a = nodes[0]!;
      const url = await createUpload(a.base, dave.token, nokia.length, { filename: "abandoned.jpg" });
      await interruptedPatch(url, dave.token, nokia, 0, 300_000);
      const segment = new URL(url).pathname.split("/").pop()!;
      const staging = new S3UploadStaging(a.config.uploads.s3!, new S3BlobStore(a.config.uploads.s3!));
      expect(await staging.removeAbandoned()).not.toContain(segment);
      const later = new Date(Date.now() + UPLOAD_LIFETIME_MS + 60_000);
      expect(await staging.removeAbandoned(UPLOAD_LIFETIME_MS, later)).toContain(segment);
      expect((await fetch(url, { method: "HEAD", headers: tusHeaders(dave.token) })).status).toBe(404);
      expect(await keysUnder(bucket.config.bucket, "uploads/")).toEqual([]);
    });
  });
});
