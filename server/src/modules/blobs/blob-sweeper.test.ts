import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDialect, useTestDb } from "../../test/dialects.js";
import { startTestS3Server, type TestS3Server } from "../../test/s3-servers.js";
import { CredentialsCipher } from "../channels/credentials-cipher.js";
import { StorageRepository, type TargetRecord } from "../storage/storage.repository.js";
import { StorageSweepTargets } from "../storage/sweep-targets.js";
import { BUILT_IN_TARGET, placeOf, secretContext, TargetStores } from "../storage/target-stores.js";
import { newOriginalKey } from "./blob-keys.js";
import type { BlobStore } from "./blob-store.js";
import { BlobSweeper, type SweepReport } from "./blob-sweeper.js";
import { BlobsRepository } from "./blobs.repository.js";
import { LocalBlobStore } from "./local-blob-store.js";

const HOUR = 60 * 60 * 1000;

describeEachDialect("blob sweeper", (dialect) => {
  const db = useTestDb(dialect);
  let root: string;
  let builtIn: LocalBlobStore;
  let s3: TestS3Server;
  const cipher = new CredentialsCipher(randomBytes(32));

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "dams-sweep-"));
    builtIn = new LocalBlobStore(path.join(root, "blobs"));
    s3 = await startTestS3Server();
  });
  afterAll(async () => {
    await s3.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  const rows = () => new StorageRepository(db().kysely, db().adapter);
  const registry = () => new BlobsRepository(db());

  async function target(name: string, kind: "local" | "s3", settings: Record<string, unknown>): Promise<string> {
    const id = randomUUID();
    const now = new Date().toISOString();
    const record: TargetRecord = {
      id,
      name,
      kind,
      settings: settings as unknown as TargetRecord["settings"],
      secret: kind === "s3" ? cipher.encrypt(secretContext(id), { secretAccessKey: "S3RVER" }) : null,
      isDefault: false,
      createdBy: null,
      createdAt: now,
      updatedAt: now,
    };
    await rows().insertTarget(record);
    return id;
  }

  const s3Settings = (endpoint: string) => ({
    endpoint,
    region: "us-east-1",
    bucket: s3.config.bucket,
    prefix: "sweep-test",
    pathStyle: true,
    accessKeyId: "S3RVER",
  });

  async function put(store: BlobStore, key: string, ageMs = 0) {
    await store.put(key, Readable.from([Buffer.from(`bytes of ${key}`)]));
    if (ageMs > 0 && store instanceof LocalBlobStore) {
      const when = new Date(Date.now() - ageMs);
      // The local stores of this test: the built-in one and the local target's folder.
      const base = store === builtIn ? path.join(root, "blobs") : path.join(root, "targets", "second");
      fs.utimesSync(path.join(base, key), when, when);
    }
  }

  async function register(key: string) {
    await registry().insert({
      key,
      sha256: "0".repeat(64),
      size: 1,
      mime: "image/jpeg",
      kind: "photo",
      original_name: null,
      created_by: null,
      created_at: new Date().toISOString(),
    });
  }

  const located = (key: string, targetId: string, previousTargetId: string | null = null) =>
    rows().setLocation(key, { targetId, previousTargetId }, new Date().toISOString());

  it("sweeps every storage target: orphans go after the grace period, live blobs and blobs mid-move stay, an unreachable target is reported", async () => {
    const second = await target("second", "local", { directory: "second" });
    // The same folder under another name: walked once, with the first.
    const alias = await target("second-alias", "local", { directory: "second" });
    // The same folder again, through a link: its place is spelled differently, the sweeper's probe finds it is one.
    fs.mkdirSync(path.join(root, "targets", "second"), { recursive: true });
    fs.symlinkSync(path.join(root, "targets", "second"), path.join(root, "targets", "zz-linked"));
    const linked = await target("zz-linked", "local", { directory: "zz-linked" });
    const bucket = await target("bucket", "s3", s3Settings(s3.config.endpoint!));
    const down = await target("down", "s3", s3Settings("http://127.0.0.1:9"));
    const stores = new TargetStores(
      { builtIn, localRoot: path.join(root, "targets"), scratchDirectory: path.join(root, "tmp"), cipher },
      (id) => rows().target(id),
    );
    const secondStore = await stores.of(second);
    const bucketStore = await stores.of(bucket);
    const sweeper = new BlobSweeper(
      registry(),
      new StorageSweepTargets(rows(), stores, {
        builtIn: placeOf({ kind: "local", directory: path.join(root, "blobs") }),
        localRoot: path.join(root, "targets"),
      }),
    );

    // The built-in storage, as before targets existed.
    const builtInLive = newOriginalKey();
    await put(builtIn, builtInLive, 5 * HOUR);
    await register(builtInLive);
    const builtInOrphan = newOriginalKey();
    await put(builtIn, builtInOrphan, 5 * HOUR);
    const builtInYoung = newOriginalKey();
    await put(builtIn, builtInYoung, 60_000);
    await put(builtIn, "renditions/aa/not-an-original", 5 * HOUR);
    const lost = newOriginalKey();
    await register(lost);

    // The local target.
    const secondLive = newOriginalKey();
    await put(secondStore, secondLive, 5 * HOUR);
    await register(secondLive);
    await located(secondLive, second);
    // An upload placed there that never got its row: the file and its location go.
    const secondOrphan = newOriginalKey();
    await located(secondOrphan, second);
    await put(secondStore, secondOrphan, 5 * HOUR);
    // A registered blob that lives in the built-in storage, with a stale copy here and no move on its way: the copy goes.
    const strayCopy = newOriginalKey();
    await put(builtIn, strayCopy, 5 * HOUR);
    await put(secondStore, strayCopy, 5 * HOUR);
    await register(strayCopy);
    // A move switched this one to the local target and has not yet deleted the built-in copy: both stay.
    const switched = newOriginalKey();
    await put(builtIn, switched, 5 * HOUR);
    await put(secondStore, switched, 5 * HOUR);
    await register(switched);
    await located(switched, second, BUILT_IN_TARGET);

    // The S3 target (s3rver dates every object now: the second sweep looks from two hours on).
    const bucketLive = newOriginalKey();
    await put(bucketStore, bucketLive);
    await register(bucketLive);
    await located(bucketLive, bucket);
    const bucketOrphan = newOriginalKey();
    await put(bucketStore, bucketOrphan);
    // Mid-move to the bucket: copied there, the row still names the built-in storage. Neither copy may go.
    const midMove = newOriginalKey();
    await put(builtIn, midMove, 5 * HOUR);
    await put(bucketStore, midMove);
    await register(midMove);
    const moveId = randomUUID();
    const now = new Date().toISOString();
    await rows().insertMove({
      id: moveId,
      libraryId: "material",
      targetId: bucket,
      state: "running",
      totalFiles: 1,
      movedFiles: 0,
      movedBytes: 0,
      error: null,
      jobId: null,
      createdBy: null,
      createdAt: now,
      updatedAt: now,
      finishedAt: null,
    });
    const bucketLost = newOriginalKey();
    await register(bucketLost);
    await located(bucketLost, bucket);
    // Recorded in the unreachable target: not checked, so not reported missing.
    const unreachableKey = newOriginalKey();
    await register(unreachableKey);
    await located(unreachableKey, down);

    const first = await sweeper.sweep({ graceMs: HOUR });
    const figures = (report: SweepReport, id: string) => report.targets.find((t) => t.targetId === id);
    expect(first.deleted.sort()).toEqual([builtInOrphan, secondOrphan, strayCopy].sort());
    expect(first.young.sort()).toEqual([builtInYoung, bucketOrphan].sort());
    expect(first.missing.sort()).toEqual([lost, bucketLost].sort());
    expect(first.targets.map((t) => t.targetId)).toEqual([BUILT_IN_TARGET, bucket, down, second, alias, linked]);
    expect(figures(first, BUILT_IN_TARGET)).toMatchObject({
      scanned: 6,
      deleted: 1,
      young: 1,
      moving: 0,
      missing: 1,
      error: null,
    });
    expect(figures(first, second)).toMatchObject({
      name: "second",
      scanned: 4,
      deleted: 2,
      young: 0,
      moving: 0,
      error: null,
      sameAs: null,
    });
    expect(figures(first, alias)).toMatchObject({ scanned: 0, deleted: 0, sameAs: second, error: null });
    expect(figures(first, linked)).toMatchObject({ scanned: 0, deleted: 0, sameAs: second, error: null });
    expect(figures(first, bucket)).toMatchObject({
      scanned: 3,
      deleted: 0,
      young: 1,
      moving: 1,
      missing: 1,
      error: null,
    });
    expect(figures(first, down)).toMatchObject({
      scanned: 0,
      missing: 0,
      error: { reason: "unreachable", message: expect.any(String) },
    });
    expect(first.scanned).toBe(6 + 4 + 3);

    expect(await builtIn.stat(builtInOrphan)).toBeNull();
    expect(await secondStore.stat(secondOrphan)).toBeNull();
    expect(await rows().location(secondOrphan)).toBeUndefined();
    expect(await secondStore.stat(strayCopy)).toBeNull();
    for (const key of [builtInLive, builtInYoung, strayCopy, switched, midMove, "renditions/aa/not-an-original"]) {
      expect(await builtIn.stat(key), key).not.toBeNull();
    }
    expect(await secondStore.stat(secondLive)).not.toBeNull();
    expect(await secondStore.stat(switched)).not.toBeNull();
    expect(await rows().location(switched)).toEqual({ targetId: second, previousTargetId: BUILT_IN_TARGET });
    // The probes are gone.
    for (const store of [builtIn, secondStore, bucketStore]) {
      const probes: string[] = [];
      for await (const key of store.list("dams-probe/")) probes.push(key);
      expect(probes).toEqual([]);
    }
    // Rows whose file is missing are reported, never deleted.
    expect(await registry().find(lost)).toBeDefined();

    // Past the grace period: the bucket's orphan goes; the copy a running move made stays.
    const later = await sweeper.sweep({ graceMs: HOUR, now: new Date(Date.now() + 2 * HOUR) });
    expect(later.deleted).toContain(bucketOrphan);
    expect(figures(later, bucket)).toMatchObject({ scanned: 3, deleted: 1, moving: 1 });
    expect(await bucketStore.stat(bucketOrphan)).toBeNull();
    expect(await bucketStore.stat(bucketLive)).not.toBeNull();
    expect(await bucketStore.stat(midMove)).not.toBeNull();
    expect(await builtIn.stat(midMove)).not.toBeNull();

    // Once the move has ended without switching it (failed for good), the copy in the bucket is a stray: it goes.
    await rows().updateMove(moveId, { state: "failed", finishedAt: now }, now);
    const after = await sweeper.sweep({ graceMs: HOUR, now: new Date(Date.now() + 2 * HOUR) });
    expect(after.deleted).toEqual([midMove]);
    expect(await bucketStore.stat(midMove)).toBeNull();
    expect(await builtIn.stat(midMove)).not.toBeNull();
  });

  it("does not walk a target whose files lie inside another's, and walks the others", async () => {
    const outer = { kind: "s3" as const, endpoint: "http://x", region: "r", bucket: "b", prefix: "p" };
    const places = [
      placeOf(outer),
      placeOf({ ...outer, prefix: "p/originals/q" }),
      placeOf({ ...outer, prefix: "p2" }),
    ];
    const walked: string[] = [];
    const empty = new LocalBlobStore(path.join(root, "empty"));
    const storeOf = (id: string) => async () => {
      walked.push(id);
      return empty;
    };
    const report = await new BlobSweeper(registry(), {
      builtInId: "builtin",
      list: async () => [
        { id: "outer", name: "outer", place: places[0]!, store: storeOf("outer") },
        { id: "inner", name: "inner", place: places[1]!, store: storeOf("inner") },
        { id: "beside", name: "beside", place: places[2]!, store: storeOf("beside") },
      ],
      locations: async () => new Map(),
      activeMoveTargets: async () => new Set(),
      forgetLocation: async () => {},
    }).sweep();
    expect(walked).toEqual(["beside"]);
    expect(report.targets.map((t) => [t.targetId, t.error?.reason ?? null])).toEqual([
      ["outer", "overlaps"],
      ["inner", "overlaps"],
      ["beside", null],
    ]);
  });
});
