import fs from "node:fs";
import path from "node:path";
import type { DetailedError } from "tus-js-client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDialect, useTestDb } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { seededRandom } from "../../test/random.js";
import { BlobsRepository } from "../blobs/blobs.repository.js";
import { buildBlobStore } from "../blobs/build-blob-store.js";
import { HashingFileStore, UPLOAD_LIFETIME_MS } from "./hashing-file-store.js";
import {
  CORPUS,
  createUpload,
  interruptedPatch,
  offsetOf,
  patchHeaders,
  type RunningApp,
  sha256,
  stagedBeyond,
  startApp,
  storedBytes,
  temporaryDataDir,
  tusHeaders,
  tusUpload,
  UPLOADS,
} from "./uploads.test-support.js";

const MAX_BYTES = 4 * 1024 * 1024;
const nokia = fs.readFileSync(path.join(CORPUS, "jpg/mobile/HMD_Nokia_8.3_5G.jpg"));
const canon = fs.readFileSync(path.join(CORPUS, "jpg/Canon_40D.jpg"));

function refusal(error: unknown): {
  status: number;
  body: { code: number; msg: string; error: string; msgCode?: string; msgParams?: Record<string, string> };
} {
  const response = (error as DetailedError).originalResponse;
  if (!response) throw error;
  return { status: response.getStatus(), body: JSON.parse(response.getBody()) };
}

describeEachDialect("tus uploads", (dialect) => {
  const db = useTestDb(dialect);
  const dataDir = temporaryDataDir();
  let running: RunningApp;
  let alice: TestPrincipal;
  let bob: TestPrincipal;

  beforeAll(async () => {
    running = await startApp(db(), dataDir, { DAMS_UPLOAD_MAX_BYTES: String(MAX_BYTES) });
    alice = await createPrincipal(db(), { username: "alice", roleId: "contributor" });
    bob = await createPrincipal(db(), { username: "bob", roleId: "contributor" });
  });
  afterAll(async () => {
    await running.app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("stores a corpus JPEG whole: blob, registry row and draft story agree with the source", async () => {
    const done = await tusUpload(running.base, alice.token, canon, {
      metadata: { filename: "Canon 40D 台风.jpg", filetype: "text/html", libraryId: "product" },
    });
    expect(done.status).toBe(200);
    const { upload, result } = done.body.data;
    expect(upload).toMatchObject({ sha256: sha256(canon), size: canon.length, mime: "image/jpeg", kind: "photo" });
    expect(upload.originalName).toBe("Canon 40D 台风.jpg");
    expect(upload.blobKey).toMatch(/^originals\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f-]{36}$/);
    expect(result).toEqual({ libraryId: "product", storyId: expect.any(String), versionNo: 1, duplicates: [] });
    expect(sha256(await storedBytes(running, upload.blobKey))).toBe(sha256(canon));

    const row = await new BlobsRepository(db()).find(upload.blobKey);
    expect(row).toMatchObject({ sha256: sha256(canon), size: canon.length, mime: "image/jpeg", kind: "photo" });
    expect(row?.created_by).toBe(alice.id);

    const story = await db()
      .kysely.selectFrom("stories")
      .selectAll()
      .where("id", "=", (result as { storyId: string }).storyId)
      .executeTakeFirstOrThrow();
    expect(story).toMatchObject({ library_id: "product", status: "draft", created_by: alice.id, type: "photo" });
    // The client's filetype is never trusted for the type; the name is the one it sent.
    expect(story).toMatchObject({ mime: "image/jpeg", original_name: "Canon 40D 台风.jpg", title: "Canon 40D 台风" });
    expect(story.content_sha256).toBe(sha256(canon));
    // The finished upload is gone from the upload area; HEAD still says it is complete (its story is recorded),
    // so a client resuming it reports success instead of sending it again.
    const id = new URL(done.url).pathname.split("/").pop()!;
    expect(fs.existsSync(path.join(running.config.uploads.directory, id))).toBe(false);
    const head = await fetch(done.url, { method: "HEAD", headers: tusHeaders(alice.token) });
    expect(head.status).toBe(200);
    expect(head.headers.get("upload-offset")).toBe(String(canon.length));
    expect(head.headers.get("upload-length")).toBe(String(canon.length));
    expect((await fetch(done.url, { method: "HEAD", headers: tusHeaders(bob.token) })).status).toBe(404);
  });

  it("stores in one request with creation-with-upload (201 and the result)", async () => {
    const done = await tusUpload(running.base, alice.token, canon, { metadata: { filename: "one-shot.jpg" } });
    expect(done.status).toBe(200);
    const response = await fetch(`${running.base}${UPLOADS}`, {
      method: "POST",
      headers: tusHeaders(alice.token, {
        "upload-length": String(canon.length),
        "upload-metadata": `filename ${Buffer.from("post.jpg").toString("base64")}`,
        "content-type": "application/offset+octet-stream",
      }),
      body: canon,
    });
    expect(response.status).toBe(201);
    expect(response.headers.get("upload-offset")).toBe(String(canon.length));
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    // The hijacked response still carries the security headers of every answer.
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("tus-resumable")).toBe("1.0.0");
    expect(response.headers.get("location")).toMatch(/\/dams\/api\/v1\/uploads\/[0-9a-f]{32}$/);
    const body = await response.json();
    expect(body.data.upload).toMatchObject({ sha256: sha256(canon), originalName: "post.jpg" });
    // The POST's one lock (kept from its write through its completion) is let go once it is answered.
    const locks = () => db().kysely.selectFrom("upload_locks").select("upload_id").execute();
    for (const started = Date.now(); (await locks()).length > 0 && Date.now() - started < 30_000; )
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await locks()).toEqual([]);
  });

  it("puts the story in the library checked at the creation, whatever library the client forged for the server's key", async () => {
    const post = async (metadata: string) => {
      const response = await fetch(`${running.base}${UPLOADS}`, {
        method: "POST",
        headers: tusHeaders(alice.token, {
          "upload-length": String(canon.length),
          "upload-metadata": metadata,
          "content-type": "application/offset+octet-stream",
        }),
        body: canon,
      });
      expect(response.status).toBe(201);
      return (await response.json()).data.result.libraryId as string;
    };
    const named = (value: string) => Buffer.from(value).toString("base64");
    const defaultLibrary = await post(`filename ${named("plain.jpg")}`);
    const forged = await post(`filename ${named("forged.jpg")},dams-library ${named("no-such-library")}`);
    expect(forged).toBe(defaultLibrary);
    expect(forged).not.toBe("no-such-library");
  });

  it("survives interruptions at random offsets and resumes to the exact bytes", async () => {
    const random = seededRandom(dialect === "sqlite" ? 7 : 11);
    const url = await createUpload(running.base, alice.token, nokia.length, { filename: "nokia.jpg" });
    let offset = 0;
    for (let cut = 0; cut < 3; cut++) {
      const bytes = 1 + Math.floor(random() * ((nokia.length - offset) / 3));
      await interruptedPatch(url, alice.token, nokia, offset, bytes, stagedBeyond(running, url, offset));
      const now = await offsetOf(url, alice.token);
      expect(now).toBeGreaterThanOrEqual(offset);
      expect(now).toBeLessThanOrEqual(offset + bytes);
      offset = now;
    }
    expect(offset).toBeGreaterThan(0);
    const done = await tusUpload(running.base, alice.token, nokia, { uploadUrl: url, chunkSize: 256 * 1024 });
    expect(done.body.data.upload.sha256).toBe(sha256(nokia));
    expect(sha256(await storedBytes(running, done.body.data.upload.blobKey))).toBe(sha256(nokia));
  });

  it("resumes across a server restart", async () => {
    const url = await createUpload(running.base, alice.token, nokia.length, { filename: "restart.jpg" });
    await interruptedPatch(url, alice.token, nokia, 0, 700_000, stagedBeyond(running, url, 0));
    const before = await offsetOf(url, alice.token);
    expect(before).toBeGreaterThan(0);

    await running.app.close();
    running = await startApp(db(), dataDir, { DAMS_UPLOAD_MAX_BYTES: String(MAX_BYTES) });
    const resumedUrl = `${running.base}${new URL(url).pathname}`;
    expect(await offsetOf(resumedUrl, alice.token)).toBe(before);

    // The running hash died with the old process: the stored SHA-256 comes from the file and must still be right.
    const done = await tusUpload(running.base, alice.token, nokia, { uploadUrl: resumedUrl });
    expect(done.body.data.upload.sha256).toBe(sha256(nokia));
    expect(sha256(await storedBytes(running, done.body.data.upload.blobKey))).toBe(sha256(nokia));
  });

  it("tells what it supports on OPTIONS, without a token", async () => {
    const response = await fetch(`${running.base}${UPLOADS}`, { method: "OPTIONS" });
    expect(response.status).toBe(204);
    expect(response.headers.get("tus-version")).toBe("1.0.0");
    expect(response.headers.get("tus-max-size")).toBe(String(MAX_BYTES));
    expect(response.headers.get("tus-extension")?.split(",")).toEqual(
      expect.arrayContaining(["creation", "creation-with-upload", "termination"]),
    );
  });

  it("answers a wrong Upload-Offset with 409 and changes nothing", async () => {
    const url = await createUpload(running.base, alice.token, canon.length);
    const response = await fetch(url, {
      method: "PATCH",
      headers: patchHeaders(alice.token, 100),
      body: canon.subarray(100, 200),
    });
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ code: 409, error: "conflict" });
    expect(await offsetOf(url, alice.token)).toBe(0);
  });

  it("answers every protocol error as the JSON envelope with the security headers, and no cross-origin access", async () => {
    const url = await createUpload(running.base, alice.token, canon.length);
    const auth = { authorization: `Bearer ${alice.token}`, origin: "https://elsewhere.example" };
    const answers = [
      // No Tus-Resumable (tus writes "Tus-Resumable Required" as text).
      [412, await fetch(`${running.base}${UPLOADS}`, { method: "POST", headers: { ...auth, "upload-length": "10" } })],
      // A PATCH with the wrong content type ("Invalid content-type" as text).
      [
        400,
        await fetch(url, {
          method: "PATCH",
          headers: tusHeaders(alice.token, { "upload-offset": "0", "content-type": "text/plain", ...auth }),
          body: "abc",
        }),
      ],
      // No length at all.
      [400, await fetch(`${running.base}${UPLOADS}`, { method: "POST", headers: tusHeaders(alice.token, auth) })],
      // A wrong offset.
      [
        409,
        await fetch(url, {
          method: "PATCH",
          headers: tusHeaders(alice.token, {
            "upload-offset": "5",
            "content-type": "application/offset+octet-stream",
            ...auth,
          }),
          body: "abc",
        }),
      ],
    ] as const;
    for (const [status, response] of answers) {
      expect(response.status).toBe(status);
      expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(await response.json()).toMatchObject({ code: status, msg: expect.any(String), error: expect.any(String) });
      expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("access-control-allow-origin")).toBeNull();
    }
  });

  it("refuses more than the maximum with 413: by Upload-Length, and by bytes sent", async () => {
    const tooLong = await fetch(`${running.base}${UPLOADS}`, {
      method: "POST",
      headers: tusHeaders(alice.token, { "upload-length": String(MAX_BYTES + 1) }),
    });
    expect(tooLong.status).toBe(413);
    expect(await tooLong.json()).toMatchObject({ code: 413, error: "payload_too_large" });

    // Length deferred: the bytes themselves cross the maximum.
    const deferred = await fetch(`${running.base}${UPLOADS}`, {
      method: "POST",
      headers: tusHeaders(alice.token, { "upload-defer-length": "1" }),
    });
    expect(deferred.status).toBe(201);
    const url = new URL(deferred.headers.get("location")!, running.base).toString();
    const overflow = await fetch(url, {
      method: "PATCH",
      headers: patchHeaders(alice.token, 0),
      body: Buffer.alloc(MAX_BYTES + 1024),
    });
    expect(overflow.status).toBe(413);

    // More bytes than the declared Upload-Length.
    const declared = await createUpload(running.base, alice.token, 1000);
    const beyond = await fetch(declared, {
      method: "PATCH",
      headers: patchHeaders(alice.token, 0),
      body: Buffer.alloc(2000),
    });
    expect(beyond.status).toBe(413);
  });

  it("hides another user's upload: 404 for HEAD, PATCH and DELETE, even with a forged owner in the metadata", async () => {
    const url = await createUpload(running.base, alice.token, canon.length, { "dams-owner": bob.id });
    for (const method of ["HEAD", "PATCH", "DELETE"]) {
      const response = await fetch(url, {
        method,
        headers: patchHeaders(bob.token, 0),
        body: method === "PATCH" ? canon : undefined,
      });
      expect(response.status, method).toBe(404);
    }
    expect(await offsetOf(url, alice.token)).toBe(0);
    const unknown = await fetch(`${running.base}${UPLOADS}/${"0".repeat(32)}`, {
      method: "HEAD",
      headers: tusHeaders(alice.token),
    });
    expect(unknown.status).toBe(404);
    const anonymous = await fetch(`${running.base}${UPLOADS}`, {
      method: "POST",
      headers: { "tus-resumable": "1.0.0", "upload-length": "10" },
    });
    expect(anonymous.status).toBe(401);
  });

  it("refuses a spoofed type with a message the client sees, and keeps nothing", async () => {
    const html = Buffer.from("<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>");
    const elf = fs.readFileSync(process.execPath).subarray(0, 256 * 1024);
    const rowsBefore = await db().kysely.selectFrom("blobs").select("key").execute();
    for (const [file, name, named, content] of [
      [html, "holiday.jpg", "an HTML document", "html"],
      [elf, "interview.mp4", "an executable program (ELF)", "elf"],
    ] as const) {
      const error = await tusUpload(running.base, alice.token, file, { metadata: { filename: name } }).catch(
        (caught: unknown) => caught,
      );
      const { status, body } = refusal(error);
      expect(status).toBe(415);
      expect(body.error).toBe("unsupported_file_type");
      expect(body.msg).toContain(`This file is ${named}, which cannot be uploaded.`);
      expect(body.msg).toContain("Accepted: images (JPEG");
      expect(body).toMatchObject({ msgCode: "file.refused", msgParams: { content } });
    }
    const rowsAfter = await db().kysely.selectFrom("blobs").select("key").execute();
    expect(rowsAfter).toHaveLength(rowsBefore.length);
    // Refused uploads leave no file in the upload area.
    const leftovers = fs
      .readdirSync(running.config.uploads.directory)
      .filter((name) => !name.endsWith(".json") && name !== ".moving");
    const configs = fs.readdirSync(running.config.uploads.directory).filter((name) => name.endsWith(".json"));
    expect(leftovers.length).toBe(configs.length);
  });

  it("terminates an upload: DELETE, then it is gone", async () => {
    const url = await createUpload(running.base, alice.token, canon.length);
    await interruptedPatch(url, alice.token, canon, 0, 1000, stagedBeyond(running, url, 0));
    const id = new URL(url).pathname.split("/").pop()!;
    expect(fs.existsSync(path.join(running.config.uploads.directory, id))).toBe(true);
    const deleted = await fetch(url, { method: "DELETE", headers: tusHeaders(alice.token) });
    expect(deleted.status).toBe(204);
    expect((await fetch(url, { method: "HEAD", headers: tusHeaders(alice.token) })).status).toBe(404);
    expect(fs.existsSync(path.join(running.config.uploads.directory, id))).toBe(false);
  });

  it("removes abandoned uploads after their lifetime, and only those", async () => {
    const url = await createUpload(running.base, alice.token, canon.length);
    const id = new URL(url).pathname.split("/").pop()!;
    const uploads = new HashingFileStore(running.config.uploads.directory);
    expect(await uploads.removeAbandoned()).not.toContain(id);
    const later = new Date(Date.now() + UPLOAD_LIFETIME_MS + 60_000);
    expect(await uploads.removeAbandoned(UPLOAD_LIFETIME_MS, later)).toContain(id);
    expect((await fetch(url, { method: "HEAD", headers: tusHeaders(alice.token) })).status).toBe(404);
  });

  it("keeps blob and row together: when the story cannot be made, the blob is deleted and the client told", async () => {
    const keysBefore: string[] = [];
    for await (const key of buildBlobStore(running.config.storage).list("originals/")) keysBefore.push(key);
    // A folder that does not exist: refused by the stories module after the bytes were stored.
    const error = await tusUpload(running.base, alice.token, canon, {
      metadata: { filename: "x.jpg", libraryId: "product", folderId: "00000000-0000-4000-8000-000000000000" },
    }).catch((caught: unknown) => caught);
    expect(refusal(error).status).toBe(404);
    expect(refusal(error).body.msg).toMatch(/folder/);
    const keysAfter: string[] = [];
    for await (const key of buildBlobStore(running.config.storage).list("originals/")) keysAfter.push(key);
    expect(keysAfter.sort()).toEqual(keysBefore.sort());
    const rows = await db().kysely.selectFrom("blobs").select("key").execute();
    expect(rows.map((row) => row.key).sort()).toEqual(keysBefore.sort());
  });
});
