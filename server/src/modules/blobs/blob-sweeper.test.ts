import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDialect, useTestDb } from "../../test/dialects.js";
import { BlobSweeper } from "./blob-sweeper.js";
import { BlobsRepository } from "./blobs.repository.js";
import { LocalBlobStore } from "./local-blob-store.js";

describeEachDialect("blob sweeper", (dialect) => {
  const db = useTestDb(dialect);
  let root: string;
  let store: LocalBlobStore;

  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "dams-sweep-"));
    store = new LocalBlobStore(root);
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  async function blob(key: string, ageMs: number) {
    await store.put(key, Readable.from([Buffer.from(key)]));
    const when = new Date(Date.now() - ageMs);
    fs.utimesSync(path.join(root, key), when, when);
  }

  async function row(key: string) {
    await new BlobsRepository(db()).insert({
      key,
      sha256: "0".repeat(64),
      size: key.length,
      mime: "image/jpeg",
      kind: "photo",
      original_name: null,
      created_by: null,
      created_at: new Date().toISOString(),
    });
  }

  it("deletes old orphans, keeps young ones and registered blobs, reports rows without a blob", async () => {
    const hour = 60 * 60 * 1000;
    await blob("originals/aa/aa/registered", 5 * hour);
    await row("originals/aa/aa/registered");
    await blob("originals/aa/bb/old-orphan", 5 * hour);
    await blob("originals/cc/dd/young-orphan", 60 * 1000);
    await blob("renditions/aa/not-an-original", 5 * hour);
    await row("originals/ee/ff/lost");

    const report = await new BlobSweeper(store, new BlobsRepository(db())).sweep({ graceMs: hour });
    expect(report).toEqual({
      scanned: 3,
      deleted: ["originals/aa/bb/old-orphan"],
      young: ["originals/cc/dd/young-orphan"],
      missing: ["originals/ee/ff/lost"],
    });
    expect(await store.stat("originals/aa/bb/old-orphan")).toBeNull();
    expect(await store.stat("originals/aa/aa/registered")).not.toBeNull();
    expect(await store.stat("originals/cc/dd/young-orphan")).not.toBeNull();
    expect(await store.stat("renditions/aa/not-an-original")).not.toBeNull();
    // The lost row is reported, never deleted.
    expect(await new BlobsRepository(db()).find("originals/ee/ff/lost")).toBeDefined();
  });
});
