import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDialect } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { rgwAvailable, startRgwBucket, startTestS3Server, type TestS3Server } from "../../test/s3-servers.js";
import { CORPUS } from "../../test/scale-out/media-files.js";
import { api, useStoriesApp } from "../../test/stories-app.js";
import { newOriginalKey } from "../blobs/blob-keys.js";
import type { BlobStore, ByteRange, StoredBlob } from "../blobs/blob-store.js";
import { BlobsRepository } from "../blobs/blobs.repository.js";
import { BlobsService } from "../blobs/blobs.service.js";
import { RoutingBlobStore } from "../blobs/routing-blob-store.js";
import { CredentialsCipher } from "../channels/credentials-cipher.js";
import { buildIngest } from "../ingest/ingest.compose.js";
import type { JobContext } from "../jobs/job-types.js";
import { TargetBlobLocator } from "./blob-locator.js";
import { moveLibraryJob } from "./move-library.job.js";
import { StorageRepository } from "./storage.repository.js";
import { StoragePlacement } from "./storage-placement.js";
import { BUILT_IN_TARGET, TargetStores } from "./target-stores.js";

/** s3rver does not check signatures: any secret works, and this one must never come back. */
const SECRET = "s3rver-secret-不可外泄-42";

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** A store that fails on purpose: the n-th put (a crash mid-copy) and the first deletes (a crash after the switch). */
class FailingStore implements BlobStore {
  puts = 0;
  deletes = 0;
  constructor(
    private readonly inner: BlobStore,
    private readonly failures: { putAfter?: number; failDeletes?: number },
  ) {}
  get kind() {
    return this.inner.kind;
  }
  put(key: string, body: Readable, options?: { contentType?: string }): Promise<StoredBlob> {
    this.puts++;
    if (this.failures.putAfter !== undefined && this.puts > this.failures.putAfter) {
      body.destroy();
      return Promise.reject(new Error("the worker process was killed mid-copy"));
    }
    return this.inner.put(key, body, options);
  }
  putFile(key: string, file: string, options?: { contentType?: string }) {
    return this.inner.putFile(key, file, options);
  }
  get(key: string, range?: ByteRange) {
    return this.inner.get(key, range);
  }
  stat(key: string) {
    return this.inner.stat(key);
  }
  delete(key: string): Promise<void> {
    this.deletes++;
    if (this.deletes <= (this.failures.failDeletes ?? 0)) {
      return Promise.reject(new Error("the worker process was killed before deleting the old copy"));
    }
    return this.inner.delete(key);
  }
  list(prefix: string) {
    return this.inner.list(prefix);
  }
  withLocalFile<T>(key: string, work: (file: string) => Promise<T>) {
    return this.inner.withLocalFile(key, work);
  }
  presignedUrl(key: string, options: { fileName: string; contentType: string; expiresInSeconds: number }) {
    return this.inner.presignedUrl(key, options);
  }
}

describeEachDialect("storage targets", (dialect) => {
  const ctx = useStoriesApp(dialect);
  const call = api(ctx);
  let admin: TestPrincipal;
  let editor: TestPrincipal;
  let s3: TestS3Server;

  beforeAll(async () => {
    admin = await createPrincipal(ctx().db, { username: "storage-admin", roleId: "administrator", admin: true });
    editor = await createPrincipal(ctx().db, { username: "storage-editor", roleId: "editor" });
    s3 = await startTestS3Server();
  });
  afterAll(async () => {
    await s3.close();
  });

  const s3Target = (overrides: Record<string, unknown> = {}) => ({
    name: `s3 ${Math.random().toString(36).slice(2, 8)}`,
    kind: "s3",
    endpoint: s3.config.endpoint,
    region: "us-east-1",
    bucket: s3.config.bucket,
    prefix: "dams/originals-test",
    pathStyle: true,
    accessKeyId: "S3RVER",
    secretAccessKey: SECRET,
    ...overrides,
  });

  /** The target stores as the app builds them (same data dir, same shared key). */
  const targetStoresOf = (rows: StorageRepository) =>
    new TargetStores(
      {
        builtIn: ctx().blobs,
        localRoot: path.join(ctx().dataDir, "targets"),
        scratchDirectory: path.join(ctx().dataDir, "tmp"),
        cipher: new CredentialsCipher(ctx().app.sharedKeys.channelCredentials),
      },
      (id) => rows.target(id),
    );

  const routingKeyState = async (key: string) => ({
    location: await new StorageRepository(ctx().db.kysely, ctx().db.adapter).location(key),
    builtIn: await ctx().blobs.stat(key),
  });

  it("keeps the secret write-only and encrypted, tests connections with a reason, and refuses bad input", async () => {
    const created = await call(admin, "POST", "/storage/targets", s3Target({ name: "对象存储 A" }));
    expect(created.statusCode, created.body).toBe(200);
    const target = created.json().data;
    expect(target).toMatchObject({ name: "对象存储 A", kind: "s3", secretSet: true, files: 0, libraries: 0 });
    expect(created.body).not.toContain(`"${SECRET}"`);
    const listed = await call(admin, "GET", "/storage/targets");
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data[0]).toMatchObject({ id: BUILT_IN_TARGET, builtIn: true, isDefault: true });
    expect(listed.body).not.toContain("secretAccessKey");
    const row = await ctx()
      .db.kysely.selectFrom("storage_targets")
      .selectAll()
      .where("id", "=", target.id)
      .executeTakeFirstOrThrow();
    expect(row.secret).toMatch(/^v1:/);
    expect(String(row.settings)).not.toContain(SECRET);

    const tested = await call(admin, "POST", `/storage/targets/${target.id}/test`);
    expect(tested.json().data, tested.body).toMatchObject({ ok: true, reason: null });

    // Absent keeps the secret; an edit of the name alone is fine.
    const kept = await call(admin, "PUT", `/storage/targets/${target.id}`, {
      ...s3Target({ name: "对象存储 A2" }),
      secretAccessKey: undefined,
    });
    expect(kept.json().data).toMatchObject({ name: "对象存储 A2", secretSet: true });

    const unreachable = await call(
      admin,
      "POST",
      "/storage/targets/test",
      s3Target({ endpoint: "http://127.0.0.1:9" }),
    );
    expect(unreachable.json().data).toMatchObject({ ok: false, reason: "unreachable" });
    const noBucket = await call(admin, "POST", "/storage/targets/test", s3Target({ bucket: "no-such-bucket-here" }));
    expect(noBucket.json().data).toMatchObject({ ok: false, reason: "no_such_bucket" });

    // Bad input: named fields.
    const badBucket = await call(admin, "POST", "/storage/targets", s3Target({ bucket: "Bad_Bucket" }));
    expect(badBucket.statusCode).toBe(400);
    expect(badBucket.json().msg).toContain("bucket");
    const badFolder = await call(admin, "POST", "/storage/targets", { name: "x", kind: "local", directory: "../etc" });
    expect(badFolder.statusCode).toBe(400);
    expect(badFolder.json().msg).toContain("directory");
    const taken = await call(admin, "POST", "/storage/targets", s3Target({ name: "对象存储 A2" }));
    expect(taken.statusCode).toBe(409);

    // A target that does not work never becomes the default nor a library's target.
    const broken = await call(
      admin,
      "POST",
      "/storage/targets",
      s3Target({ name: "broken", endpoint: "http://127.0.0.1:9" }),
    );
    expect(broken.statusCode).toBe(200);
    const asDefault = await call(admin, "PUT", "/storage/default", { targetId: broken.json().data.id });
    expect(asDefault.statusCode).toBe(409);
    expect(asDefault.json().error).toBe("target_not_working");
    const asLibrary = await call(admin, "PUT", "/storage/libraries/product", { targetId: broken.json().data.id });
    expect(asLibrary.statusCode).toBe(409);
    const unknown = await call(admin, "PUT", "/storage/libraries/product", { targetId: "nope" });
    expect(unknown.statusCode).toBe(400);
    expect((await call(admin, "DELETE", `/storage/targets/${broken.json().data.id}`)).statusCode).toBe(200);
    expect((await call(admin, "DELETE", `/storage/targets/${BUILT_IN_TARGET}`)).statusCode).toBe(409);

    // Not for an editor.
    expect((await call(editor, "GET", "/storage/targets")).statusCode).toBe(403);
  });

  it.runIf(rgwAvailable())("names wrong credentials on a real S3 server (Ceph RGW)", async () => {
    const rgw = await startRgwBucket();
    try {
      const wrong = await call(admin, "POST", "/storage/targets/test", {
        ...s3Target({ endpoint: rgw.config.endpoint, bucket: rgw.config.bucket, prefix: null }),
        accessKeyId: rgw.config.credentials?.accessKeyId,
        secretAccessKey: "not-the-secret",
      });
      expect(wrong.json().data).toMatchObject({ ok: false, reason: "bad_credentials" });
      const right = await call(admin, "POST", "/storage/targets/test", {
        ...s3Target({ endpoint: rgw.config.endpoint, bucket: rgw.config.bucket, prefix: null }),
        accessKeyId: rgw.config.credentials?.accessKeyId,
        secretAccessKey: rgw.config.credentials?.secretAccessKey,
      });
      expect(right.json().data, right.body).toMatchObject({ ok: true });
    } finally {
      await rgw.close();
    }
  });

  it("puts a library's new originals in its target, and refuses to delete a target in use", async () => {
    const local = await call(admin, "POST", "/storage/targets", {
      name: "本地归档",
      kind: "local",
      directory: "archive",
    });
    expect(local.statusCode, local.body).toBe(200);
    const targetId = local.json().data.id;
    const assigned = await call(admin, "PUT", "/storage/libraries/product", { targetId });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(assigned.json().data.libraries.find((l: { libraryId: string }) => l.libraryId === "product")).toMatchObject({
      bucketId: targetId,
      targetId,
    });

    const bytes = Buffer.from(`new original ${Math.random()}`);
    const file = path.join(ctx().dataDir, "incoming.bin");
    fs.writeFileSync(file, Buffer.concat([fs.readFileSync(path.join(CORPUS, "Canon_40D.jpg")), bytes]));
    // The ingest as app.ts builds it: through the routing store, placed by the library's target (read from the API).
    const rows = new StorageRepository(ctx().db.kysely, ctx().db.adapter);
    const stores = targetStoresOf(rows);
    const targetOfLibrary = async (libraryId: string) =>
      (await call(admin, "GET", "/storage/settings"))
        .json()
        .data.libraries.find((library: { libraryId: string }) => library.libraryId === libraryId).targetId as string;
    const made = await buildIngest({
      db: ctx().db,
      stories: ctx().module.stories,
      defaultLibraryOf: async () => "product",
      newStoryRules: ctx().module.librarySettings,
      blobs: new RoutingBlobStore(ctx().blobs, new TargetBlobLocator(rows, stores)),
      blobRegistry: new BlobsService(new BlobsRepository(ctx().db)),
      placement: new StoragePlacement(rows, stores, targetOfLibrary),
      workDir: path.join(ctx().dataDir, "tmp", "ingest"),
    }).ingestFile({
      userId: admin.id,
      libraryId: "product",
      source: { file },
      originalName: "台风.jpg",
    });
    const key = made.blob.key;
    expect(fs.existsSync(path.join(ctx().dataDir, "targets", "archive", key))).toBe(true);
    expect(await ctx().blobs.stat(key)).toBeNull();
    expect((await routingKeyState(key)).location).toMatchObject({ targetId });

    const refused = await call(admin, "DELETE", `/storage/targets/${targetId}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().msg).toMatch(/1 libraries .* 1 files/);

    // Back to the default; the file stays where it is and is still read from there.
    await call(admin, "PUT", "/storage/libraries/product", { targetId: null });
    const stillThere = await call(admin, "GET", "/storage/targets");
    expect(stillThere.json().data.find((t: { id: string }) => t.id === targetId)).toMatchObject({
      libraries: 0,
      files: 1,
    });
  });

  it("moves a library to S3 and back, resuming after interruptions, every file verified and stored once", async () => {
    const contents = Array.from({ length: 6 }, (_, index) =>
      Buffer.from(`material file ${index} ${Math.random()}`.repeat(50)),
    );
    const keys: string[] = [];
    for (const bytes of contents) {
      const blobKey = newOriginalKey();
      await ctx().blobs.put(blobKey, Readable.from([bytes]));
      await ctx().module.stories.createDraftFromUpload({
        userId: admin.id,
        libraryId: "material",
        folderId: null,
        type: "photo",
        blobKey,
        sha256: sha256(bytes),
        size: bytes.length,
        mime: "image/jpeg",
        originalName: "迁移.jpg",
      });
      keys.push(blobKey);
    }
    const hashes = new Map(keys.map((key, index) => [key, sha256(contents[index]!)]));
    const target = (await call(admin, "POST", "/storage/targets", s3Target({ name: "move target" }))).json().data;

    const started = await call(admin, "POST", "/storage/libraries/material/move", { targetId: target.id });
    expect(started.statusCode, started.body).toBe(200);
    const move = started.json().data;
    expect(move).toMatchObject({ state: "queued", libraryId: "material", targetId: target.id });
    expect((await call(admin, "POST", "/storage/libraries/material/move", { targetId: target.id })).statusCode).toBe(
      409,
    );

    // Interrupted twice: the copy of the third file dies, then the deletion of an old copy after its switch.
    const rows = new StorageRepository(ctx().db.kysely, ctx().db.adapter);
    const real = targetStoresOf(rows);
    const statistics = ctx().module.statistics;
    const context = (attempt: number): JobContext => ({
      jobId: "interrupted",
      attempt,
      signal: new AbortController().signal,
      progress: async () => {},
    });
    const crashingCopy = new FailingStore(await real.of(target.id), { putAfter: 2 });
    const first = await moveLibraryJob({
      rows,
      stores: { of: async (id) => (id === target.id ? crashingCopy : real.of(id)) },
      blobs: statistics,
    }).run({ moveId: move.id }, context(1));
    expect(first.outcome).toBe("failed");
    const crashingDelete = new FailingStore(ctx().blobs, { failDeletes: 1 });
    const second = await moveLibraryJob({
      rows,
      stores: { of: async (id) => (id === BUILT_IN_TARGET ? crashingDelete : real.of(id)) },
      blobs: statistics,
    }).run({ moveId: move.id }, context(2));
    expect(second.outcome).toBe("failed");
    const halfway = await Promise.all(keys.map(routingKeyState));
    expect(halfway.some((state) => state.location?.previousTargetId === BUILT_IN_TARGET)).toBe(true);
    // Readable all along, wherever each file is.
    const routing = new RoutingBlobStore(ctx().blobs, new TargetBlobLocator(rows, real));
    for (const key of keys) expect(sha256(await bytesOf(await routing.get(key)))).toBe(hashes.get(key));

    // The app's own worker resumes the queued job.
    ctx().app.jobs.worker.start();
    const done = await waitForMove(move.id, "succeeded");
    expect(done).toMatchObject({ totalFiles: keys.length, movedFiles: keys.length, error: null });
    const targetStore = await real.of(target.id);
    for (const key of keys) {
      expect(await routingKeyState(key)).toEqual({
        location: { targetId: target.id, previousTargetId: null },
        builtIn: null,
      });
      expect(sha256(await bytesOf(await targetStore.get(key)))).toBe(hashes.get(key));
      expect(sha256(await bytesOf(await routing.get(key)))).toBe(hashes.get(key));
    }
    const settings = (await call(admin, "GET", "/storage/settings")).json().data;
    expect(settings.libraries.find((l: { libraryId: string }) => l.libraryId === "material")).toMatchObject({
      targetId: target.id,
      move: { id: move.id, state: "succeeded" },
    });
    expect((await call(admin, "DELETE", `/storage/targets/${target.id}`)).statusCode).toBe(409);

    // And back to the built-in storage: no location rows left, nothing left in the bucket.
    const back = await call(admin, "POST", "/storage/libraries/material/move", { targetId: BUILT_IN_TARGET });
    expect(back.statusCode, back.body).toBe(200);
    await waitForMove(back.json().data.id, "succeeded");
    for (const key of keys) {
      const state = await routingKeyState(key);
      expect(state.location).toBeUndefined();
      expect(state.builtIn).not.toBeNull();
      expect(await targetStore.stat(key)).toBeNull();
      expect(sha256(await bytesOf(await ctx().blobs.get(key)))).toBe(hashes.get(key));
    }
    await call(admin, "PUT", "/storage/libraries/material", { targetId: null });
    expect((await call(admin, "DELETE", `/storage/targets/${target.id}`)).statusCode).toBe(200);
  });

  async function waitForMove(id: string, state: string) {
    const deadline = Date.now() + 90_000;
    for (;;) {
      const move = (await call(admin, "GET", `/storage/moves/${id}`)).json().data;
      if (move.state === state) return move;
      if (Date.now() > deadline) throw new Error(`move ${id} is ${move.state} (${move.error}), not ${state}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
});
