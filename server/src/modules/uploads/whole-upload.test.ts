import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { API_PREFIX } from "../../http/error-handler.js";
import { describeEachDialect } from "../../test/dialects.js";
import { until } from "../../test/eventually.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { WHOLE_SIZE_HEADER } from "./uploads.routes.js";
import {
  CORPUS,
  encodedMetadata,
  patchHeaders,
  postWhole,
  sha256,
  storedBytes,
  tusHeaders,
  UPLOADS,
  useRunningApp,
} from "./uploads.test-support.js";

const canon = fs.readFileSync(path.join(CORPUS, "jpg/Canon_40D.jpg"));
/** The limit of these tests' app: files up to 1 MiB go without tus's staging, larger ones through it. */
const WHOLE_MAX = 1024 * 1024;

/** `file` grown past the limit with zeros after its own bytes (its type, by its first bytes, unchanged). */
function pastTheLimit(file: Buffer): Buffer {
  return Buffer.concat([file, Buffer.alloc(WHOLE_MAX + 1 - file.length)]);
}

/** The answer without what differs from upload to upload (ids, keys, sizes). */
function shapeOf(answer: Awaited<ReturnType<typeof postWhole>>) {
  const names = [...answer.headers.keys()].filter((name) => name !== "date" && name !== "keep-alive").sort();
  return { status: answer.status, headers: names, bodyKeys: Object.keys(answer.body).sort() };
}

describeEachDialect("a small file sent whole in its creation POST", (dialect) => {
  const { db, running } = useRunningApp(dialect, { DAMS_UPLOAD_WHOLE_MAX_MIB: "1" });
  let alice: TestPrincipal;
  let bob: TestPrincipal;
  let viewer: TestPrincipal;
  /** The names of the files created or changed in the staging directory since the test began. */
  let staged: string[];
  let watcher: fs.FSWatcher;

  beforeAll(async () => {
    alice = await createPrincipal(db(), { username: `whole-alice-${dialect}`, roleId: "contributor" });
    bob = await createPrincipal(db(), { username: `whole-bob-${dialect}`, roleId: "contributor" });
    viewer = await createPrincipal(db(), { username: `whole-viewer-${dialect}`, roleId: "viewer" });
  });
  beforeEach(() => {
    staged = [];
    fs.mkdirSync(running().config.uploads.directory, { recursive: true });
    watcher = fs.watch(running().config.uploads.directory, (_event, name) => {
      if (name) staged.push(name);
    });
  });
  afterEach(() => watcher.close());

  /**
   * Waits for the staging directory's events of a tus upload sent after the ones checked: the watcher reports
   * in order, so once the tus upload's are in, any of the earlier ones would be too.
   */
  async function stagingEventsUpTo(): Promise<string> {
    const answer = await postWhole(running().base, alice.token, pastTheLimit(canon), { filename: "marker.jpg" });
    expect(answer.status).toBe(201);
    const marker = answer.body.data.upload.id as string;
    await until(() => staged.some((name) => name.startsWith(marker)), "the tus upload's staging events");
    return marker;
  }

  /** What was staged other than the tus upload `marker`'s files (and the directory its move goes through). */
  const stagedBesides = (marker: string) => staged.filter((name) => !name.startsWith(marker) && name !== ".moving");

  const count = async (table: "stories" | "blobs" | "ingest_keys") =>
    Number(
      (
        await db()
          .kysely.selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("makes exactly one story with the file's SHA-256, without tus's staging, and answers as tus does", async () => {
    const stories = await count("stories");
    const answer = await postWhole(running().base, alice.token, canon, { filename: "ganz.jpg", libraryId: "product" });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const { upload, result } = answer.body.data;
    expect(upload).toMatchObject({ sha256: sha256(canon), size: canon.length, mime: "image/jpeg", kind: "photo" });
    expect(upload.originalName).toBe("ganz.jpg");
    expect(result).toMatchObject({ libraryId: "product", versionNo: 1, duplicates: [] });
    expect(answer.headers.get("upload-offset")).toBe(String(canon.length));
    expect(answer.headers.get("tus-resumable")).toBe("1.0.0");
    expect(answer.headers.get("location")).toBe(`${API_PREFIX}/uploads/${upload.id}`);
    expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
    expect(sha256(await storedBytes(running(), upload.blobKey))).toBe(sha256(canon));
    expect(await count("stories")).toBe(stories + 1);
    const story = await db()
      .kysely.selectFrom("stories")
      .select(["library_id", "content_sha256", "created_by", "original_name"])
      .where("id", "=", result.storyId)
      .executeTakeFirstOrThrow();
    expect(story).toEqual({
      library_id: "product",
      content_sha256: sha256(canon),
      created_by: alice.id,
      original_name: "ganz.jpg",
    });
    // No upload lock was taken for it.
    expect(await db().kysely.selectFrom("upload_locks").select("upload_id").execute()).toEqual([]);

    // The same answer, header for header, as tus gives a file past the limit; and nothing of the small one staged.
    const tusAnswer = await postWhole(running().base, alice.token, pastTheLimit(canon), { filename: "gross.jpg" });
    expect(shapeOf(answer)).toEqual(shapeOf(tusAnswer));
    const marker = tusAnswer.body.data.upload.id as string;
    await until(() => staged.some((name) => name.startsWith(marker)), "the tus upload's staging events");
    expect(stagedBesides(marker)).toEqual([]);
  });

  it("records the story it made once, with the caller's address, and no second row for the request", async () => {
    const carol = await createPrincipal(db(), { username: `whole-carol-${dialect}`, roleId: "contributor" });
    const auditOf = (column: "target_id" | "actor_id", value: string) =>
      db()
        .kysely.selectFrom("audit_log")
        .select(["action", "target_type", "target_id", "ip"])
        .where(column, "=", value)
        .execute();
    const answer = await postWhole(running().base, carol.token, canon, { filename: "logged.jpg" });
    expect(answer.status).toBe(201);
    const storyId = answer.body.data.result.storyId as string;
    // A request the operation log's floor records (tus's creation, its story made apart from the request), after
    // it: the floor writes once the answer is out, so once this one's row is in, the first request's would be too.
    const marker = await postWhole(running().base, carol.token, pastTheLimit(canon), { filename: "marker.jpg" });
    expect(marker.status).toBe(201);
    await until(
      async () => (await auditOf("actor_id", carol.id)).some((row) => row.target_type === "route"),
      "the floor's record of the tus request",
    );
    const rows = await auditOf("target_id", storyId);
    expect(rows).toEqual([
      { action: "story.create", target_type: "story", target_id: storyId, ip: expect.any(String) },
    ]);
    expect((await auditOf("actor_id", carol.id)).filter((row) => row.target_type === "route")).toHaveLength(1);
  });

  it("HEAD on its Location says complete, to its owner only; PATCH and DELETE find no upload", async () => {
    const answer = await postWhole(running().base, alice.token, canon, { filename: "head.jpg" });
    expect(answer.status).toBe(201);
    const url = new URL(answer.headers.get("location")!, running().base).toString();
    const head = await fetch(url, { method: "HEAD", headers: tusHeaders(alice.token) });
    expect(head.status).toBe(200);
    expect(head.headers.get("upload-offset")).toBe(String(canon.length));
    expect(head.headers.get("upload-length")).toBe(String(canon.length));
    expect((await fetch(url, { method: "HEAD", headers: tusHeaders(bob.token) })).status).toBe(404);
    const patch = await fetch(url, { method: "PATCH", headers: patchHeaders(alice.token, 0), body: canon });
    expect(patch.status).toBe(404);
    expect((await fetch(url, { method: "DELETE", headers: tusHeaders(alice.token) })).status).toBe(404);
  });

  it("a second identical POST makes a second story that names the first as its duplicate", async () => {
    const bytes = Buffer.concat([canon, Buffer.from("twice")]);
    const first = await postWhole(running().base, bob.token, bytes, { filename: "one.jpg" });
    const second = await postWhole(running().base, bob.token, bytes, { filename: "two.jpg" });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body.data.result.storyId).not.toBe(first.body.data.result.storyId);
    expect(second.body.data.result.duplicates).toEqual([
      expect.objectContaining({ storyId: first.body.data.result.storyId }),
    ]);
    expect(stagedBesides(await stagingEventsUpTo())).toEqual([]);
  });

  it("refuses bad metadata, content, access and size by quota as tus does, and keeps nothing", async () => {
    const html = Buffer.from("<!doctype html><html><body>not a photo</body></html>");
    const cases: [string, TestPrincipal, Buffer, Record<string, string | Buffer>][] = [
      ["metadata not UTF-8", alice, canon, { filename: Buffer.from([0xff, 0xfe, 0x41]) }],
      ["content", alice, html, { filename: "photo.jpg" }],
      ["no write access", viewer, canon, { filename: "viewer.jpg" }],
      ["no such library", alice, canon, { filename: "x.jpg", libraryId: "no-such-library" }],
      ["no such target", alice, canon, { target: "elsewhere" }],
    ];
    const before = { stories: await count("stories"), blobs: await count("blobs") };
    for (const [label, who, file, metadata] of cases) {
      const whole = await postWhole(running().base, who.token, file, metadata);
      const viaTus = await postWhole(running().base, who.token, pastTheLimit(file), metadata);
      expect(whole.status, label).toBeGreaterThanOrEqual(400);
      expect({ status: whole.status, body: whole.body }, label).toEqual({ status: viaTus.status, body: viaTus.body });
    }
    expect({ stories: await count("stories"), blobs: await count("blobs") }).toEqual(before);
  });

  it("refuses a file past the library's quota with tus's 413, before its bytes", async () => {
    const admin = await createPrincipal(db(), {
      username: `whole-admin-${dialect}`,
      roleId: "administrator",
      admin: true,
    });
    const setQuota = (quotaBytes: number | null) =>
      fetch(`${running().base}${API_PREFIX}/storage/quotas/libraries/material`, {
        method: "PUT",
        headers: { ...admin.headers, "content-type": "application/json" },
        body: JSON.stringify({ quotaBytes }),
      });
    expect((await setQuota(1000)).status).toBe(200);
    try {
      const whole = await postWhole(running().base, alice.token, canon, { libraryId: "material" });
      const viaTus = await postWhole(running().base, alice.token, pastTheLimit(canon), { libraryId: "material" });
      expect(whole.status).toBe(413);
      expect(whole.body).toMatchObject({ code: 413, error: viaTus.body.error, msgCode: viaTus.body.msgCode });
    } finally {
      expect((await setQuota(null)).status).toBe(200);
    }
  });

  it("sends a file past the limit through tus's staging, and makes its story", async () => {
    const file = pastTheLimit(canon);
    const answer = await postWhole(running().base, alice.token, file, { filename: "large.jpg" });
    expect(answer.status).toBe(201);
    expect(answer.body.data.upload.sha256).toBe(sha256(file));
    const id = answer.body.data.upload.id as string;
    await until(() => staged.some((name) => name.startsWith(id)), "the upload's staging events");
  });

  it("tells the web app the largest file it takes whole (tus OPTIONS), so small files go in one request", async () => {
    const options = await fetch(`${running().base}${UPLOADS}`, { method: "OPTIONS", headers: tusHeaders(alice.token) });
    expect(options.headers.get(WHOLE_SIZE_HEADER)).toBe(String(WHOLE_MAX));
  });

  it("a body shorter than announced is refused, stores nothing and leaves nothing staged", async () => {
    const before = { stories: await count("stories"), blobs: await count("blobs"), keys: await count("ingest_keys") };
    const closed = await new Promise<string>((resolve) => {
      const request = http.request(`${running().base}${UPLOADS}`, {
        method: "POST",
        headers: tusHeaders(alice.token, {
          "upload-length": String(canon.length),
          "content-length": String(canon.length),
          "content-type": "application/offset+octet-stream",
          "upload-metadata": encodedMetadata({ filename: "short.jpg" }),
        }),
      });
      request.on("response", (response) => {
        response.resume();
        resolve(`answered ${response.statusCode}`);
      });
      request.on("error", () => resolve("closed"));
      // Half the bytes, then the connection's end: the server sees the body end short.
      request.write(canon.subarray(0, canon.length >> 1), () => request.socket?.end());
    });
    expect(["closed", "answered 400"]).toContain(closed);
    // A tus upload after it: once its staging events are in, any of the cut request's would be too.
    expect(stagedBesides(await stagingEventsUpTo())).toEqual([]);
    // One story, blob and key more: the marker's, and none of the cut request.
    expect({ stories: await count("stories"), blobs: await count("blobs"), keys: await count("ingest_keys") }).toEqual({
      stories: before.stories + 1,
      blobs: before.blobs + 1,
      keys: before.keys + 1,
    });
    const { storage } = running().config;
    if (storage.kind === "local") {
      const temporary = path.join(storage.directory, ".tmp");
      expect(fs.existsSync(temporary) ? fs.readdirSync(temporary) : []).toEqual([]);
    }
  });
});
