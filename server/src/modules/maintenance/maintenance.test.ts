import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { sql } from "kysely";
import { expect, it } from "vitest";
import { describeEachDialect, useTestApp } from "../../test/dialects.js";
import { createPrincipal } from "../../test/principals.js";
import { newOriginalKey } from "../blobs/blob-keys.js";
import { buildBlobStore } from "../blobs/build-blob-store.js";
import { LocalBlobStore } from "../blobs/local-blob-store.js";
import { CredentialsCipher } from "../channels/credentials-cipher.js";
import { StorageRepository } from "../storage/storage.repository.js";
import { secretContext } from "../storage/target-stores.js";

const DAY = 24 * 60 * 60 * 1000;

describeEachDialect("maintenance", (dialect) => {
  const ctx = useTestApp(dialect, { env: { DAMS_JOBS_POLL_MS: "100" } });

  it("runs when the worker starts: deletes old orphan blobs, keeps young ones and registered ones, prunes finished jobs; the storage monitor shows its report", async () => {
    const { app, db, config } = ctx();
    const store = buildBlobStore(config.storage);
    if (config.storage.kind !== "local") throw new Error("the test runs on the local store");
    const { directory } = config.storage;
    const put = async (age: number) => {
      const key = newOriginalKey();
      await store.put(key, Readable.from([Buffer.from(`bytes of ${key}`)]));
      const when = new Date(Date.now() - age);
      fs.utimesSync(path.join(directory, key), when, when);
      return key;
    };
    const oldOrphan = await put(2 * DAY);
    const youngOrphan = await put(60_000);
    const registered = await put(2 * DAY);
    const row = (key: string) => ({
      key,
      sha256: "0".repeat(64),
      size: 10,
      mime: "image/jpeg",
      kind: "photo" as const,
      original_name: "a.jpg",
      created_by: null,
      created_at: new Date().toISOString(),
    });
    // A registered blob whose file is gone: reported, never deleted.
    const lost = newOriginalKey();
    await db.kysely
      .insertInto("blobs")
      .values([row(registered), row(lost)])
      .execute();
    const job = (state: "succeeded" | "dead", ageDays: number) => {
      const finished = new Date(Date.now() - ageDays * DAY).toISOString();
      return {
        id: randomUUID(),
        name: "old.work",
        payload: db.adapter.writeJson({}),
        state,
        attempts: 1,
        max_attempts: 1,
        run_at: finished,
        progress: 100,
        cancel_requested: false,
        created_at: finished,
        updated_at: finished,
        finished_at: finished,
      };
    };
    // A storage target an administrator added (a local folder) with an old orphan, and one that cannot be reached.
    const targets = new StorageRepository(db.kysely, db.adapter);
    const now = new Date().toISOString();
    const target = { secret: null, isDefault: false, createdBy: null, createdAt: now, updatedAt: now };
    const folderId = randomUUID();
    await targets.insertTarget({
      ...target,
      id: folderId,
      name: "A 归档盘",
      kind: "local",
      settings: { directory: "archive" },
    });
    const downId = randomUUID();
    await targets.insertTarget({
      ...target,
      id: downId,
      name: "B 断开的桶",
      kind: "s3",
      settings: {
        endpoint: "http://127.0.0.1:9",
        region: "us-east-1",
        bucket: "gone",
        prefix: null,
        pathStyle: true,
        accessKeyId: "AK",
      },
      secret: new CredentialsCipher(app.sharedKeys.channelCredentials).encrypt(secretContext(downId), {
        secretAccessKey: "SK",
      }),
    });
    const folder = path.join(config.dataDir, "targets", "archive");
    const targetOrphan = newOriginalKey();
    await new LocalBlobStore(folder).put(targetOrphan, Readable.from([Buffer.from("orphan in a target")]));
    const old = new Date(Date.now() - 2 * DAY);
    fs.utimesSync(path.join(folder, targetOrphan), old, old);

    const jobs = [job("succeeded", 20), job("succeeded", 1), job("dead", 20), job("dead", 100)];
    await db.kysely.insertInto("jobs").values(jobs).execute();

    app.jobs.worker.start();
    const maintenanceState = async () =>
      (await db.kysely.selectFrom("jobs").select("state").where("name", "=", "maintenance").executeTakeFirst())?.state;
    await expect.poll(maintenanceState, { timeout: 120_000, interval: 100 }).toBe("succeeded");

    expect(await store.stat(oldOrphan)).toBeNull();
    expect(await store.stat(youngOrphan)).not.toBeNull();
    expect(await store.stat(registered)).not.toBeNull();
    expect(fs.existsSync(path.join(folder, targetOrphan))).toBe(false);
    const left = await db.kysely.selectFrom("jobs").select("id").where("name", "=", "old.work").execute();
    expect(left.map((row) => row.id).sort()).toEqual([jobs[1]!.id, jobs[2]!.id].sort());
    const admin = await createPrincipal(db, { username: "maintenance-admin", roleId: "administrator", admin: true });
    const monitor = await app.inject({ method: "GET", url: "/dams/api/v1/monitor/storage", headers: admin.headers });
    expect(monitor.statusCode, monitor.body).toBe(200);
    expect(monitor.json().data.sweeper).toMatchObject({
      blobsScanned: 4,
      orphansDeleted: 2,
      orphansYoung: 1,
      blobsMissing: 1,
      missingKeys: [lost],
      abandonedUploads: 0,
      targets: [
        { targetId: "builtin", name: "", scanned: 3, deleted: 1, young: 1, moving: 0, missing: 1, error: null },
        { targetId: folderId, name: "A 归档盘", scanned: 1, deleted: 1, young: 0, missing: 0, error: null },
        { targetId: downId, name: "B 断开的桶", scanned: 0, error: { reason: "unreachable" } },
      ],
    });
    if (dialect === "sqlite") {
      // The planner's statistics: tables that have rows and were never analysed are now (PRAGMA optimize).
      const { rows } = await sql<{ tbl: string }>`select distinct tbl from sqlite_stat1`.execute(db.kysely);
      expect(rows.map((row) => row.tbl)).toEqual(expect.arrayContaining(["blobs", "jobs"]));
    }
  });
});
