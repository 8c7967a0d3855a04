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
    const jobs = [job("succeeded", 20), job("succeeded", 1), job("dead", 20), job("dead", 100)];
    await db.kysely.insertInto("jobs").values(jobs).execute();

    app.jobs.worker.start();
    const maintenanceState = async () =>
      (await db.kysely.selectFrom("jobs").select("state").where("name", "=", "maintenance").executeTakeFirst())?.state;
    await expect.poll(maintenanceState, { timeout: 120_000, interval: 100 }).toBe("succeeded");

    expect(await store.stat(oldOrphan)).toBeNull();
    expect(await store.stat(youngOrphan)).not.toBeNull();
    expect(await store.stat(registered)).not.toBeNull();
    const left = await db.kysely.selectFrom("jobs").select("id").where("name", "=", "old.work").execute();
    expect(left.map((row) => row.id).sort()).toEqual([jobs[1]!.id, jobs[2]!.id].sort());
    const admin = await createPrincipal(db, { username: "maintenance-admin", roleId: "administrator", admin: true });
    const monitor = await app.inject({ method: "GET", url: "/dams/api/v1/monitor/storage", headers: admin.headers });
    expect(monitor.statusCode, monitor.body).toBe(200);
    expect(monitor.json().data.sweeper).toMatchObject({
      blobsScanned: 3,
      orphansDeleted: 1,
      orphansYoung: 1,
      blobsMissing: 1,
      missingKeys: [lost],
      abandonedUploads: 0,
    });
    if (dialect === "sqlite") {
      // The planner's statistics: tables that have rows and were never analysed are now (PRAGMA optimize).
      const { rows } = await sql<{ tbl: string }>`select distinct tbl from sqlite_stat1`.execute(db.kysely);
      expect(rows.map((row) => row.tbl)).toEqual(expect.arrayContaining(["blobs", "jobs"]));
    }
  });
});
