import { ERRORS } from "@tus/utils";
import { beforeAll, expect, it } from "vitest";
import { notificationsReady } from "../../db/notifications.js";
import { describeEachDialect, useTestDbTwice } from "../../test/dialects.js";
import { until } from "../../test/eventually.js";
import { DatabaseLocker } from "./upload-locker.js";

const never = new AbortController().signal;

describeEachDialect("upload locks in the database", (dialect) => {
  const dbs = useTestDbTwice(dialect);
  let nodeA: DatabaseLocker;
  let nodeB: DatabaseLocker;

  beforeAll(async () => {
    const { db, other } = dbs();
    // On SQLite both "nodes" share one process's connection (SQLite is one node); on PostgreSQL they are
    // two pools and two LISTEN connections, like two processes.
    const second = dialect === "postgres" ? other : db;
    nodeA = new DatabaseLocker(db, { leaseMs: 600, acquireTimeoutMs: 20_000 });
    nodeB = new DatabaseLocker(second, { leaseMs: 600, acquireTimeoutMs: 20_000 });
    await notificationsReady(db.notifications);
    await notificationsReady(second.notifications);
  });

  it("lets one request hold an upload at a time and asks the holder on the other node to let go", async () => {
    const heldByA = nodeA.newLock("upload-1");
    let releaseAsked = 0;
    await heldByA.lock(never, async () => {
      releaseAsked += 1;
      await heldByA.unlock();
    });
    const wantedByB = nodeB.newLock("upload-1");
    const order: string[] = [];
    let askedOfB = 0;
    await wantedByB.lock(never, () => {
      askedOfB += 1; // B keeps it
    });
    order.push("B has it");
    expect(releaseAsked).toBeGreaterThanOrEqual(1);
    // While B holds it, A cannot take it back without asking.
    const again = nodeA.newLock("upload-1");
    const retaken = again.lock(never, () => {}).then(() => order.push("A again"));
    await until(() => askedOfB >= 1);
    expect(order).toEqual(["B has it"]);
    await wantedByB.unlock();
    await retaken;
    expect(order).toEqual(["B has it", "A again"]);
    await again.unlock();
  });

  it("frees the lock of a holder that died once its lease runs out, and not before", async () => {
    // A node killed mid-request: its row stays, nobody renews it, nobody answers release requests.
    const { db } = dbs();
    const expiresAt = Date.now() + 1500;
    await db.kysely
      .insertInto("upload_locks")
      .values({ upload_id: "upload-2", holder: "killed-node:1/x", expires_at: new Date(expiresAt).toISOString() })
      .execute();
    const lock = nodeB.newLock("upload-2");
    await lock.lock(never, () => {});
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt);
    await lock.unlock();
    expect(await db.kysely.selectFrom("upload_locks").selectAll().execute()).toEqual([]);
  });

  it("keeps a long request's lock by renewing it", async () => {
    const lock = nodeA.newLock("upload-3");
    await lock.lock(never, () => {});
    // Renewed three times (each renewal moves the row's expiry on), the holder still has it: a second request
    // waits and times out. Waiting for the renewals, not for a fixed time, keeps this true on a busy machine.
    const expiries = new Set<number>();
    await until(
      async () => {
        const row = await dbs()
          .db.kysely.selectFrom("upload_locks")
          .select("expires_at")
          .where("upload_id", "=", "upload-3")
          .executeTakeFirst();
        if (row) expiries.add(new Date(row.expires_at).getTime());
        return expiries.size > 3;
      },
      "three renewals of the lock",
      60_000,
    );
    const impatient = new DatabaseLocker(dbs().db, { leaseMs: 600, acquireTimeoutMs: 300 });
    await expect(impatient.newLock("upload-3").lock(never, () => {})).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);
    impatient.close();
    await lock.unlock();
  });

  it("tells a holder whose lease was taken over to let go", async () => {
    const { db } = dbs();
    let told = 0;
    const lock = nodeA.newLock("upload-4");
    await lock.lock(never, () => {
      told += 1;
    });
    // Another node took it after the lease ran out (this one stalled): the next renewal finds out.
    await db.kysely
      .updateTable("upload_locks")
      .set({ holder: "other-node:2/y" })
      .where("upload_id", "=", "upload-4")
      .execute();
    await until(() => told > 0);
    await lock.unlock();
    // Letting go does not delete the new holder's lock.
    expect(await db.kysely.selectFrom("upload_locks").select("holder").execute()).toEqual([
      { holder: "other-node:2/y" },
    ]);
    expect(await nodeA.removeStale(0, Date.now() + 60_000)).toBe(1);
  });

  it("gives up waiting when the request is stopped", async () => {
    const lock = nodeA.newLock("upload-5");
    await lock.lock(never, () => {});
    const stop = new AbortController();
    const waiting = nodeB.newLock("upload-5").lock(stop.signal, () => {});
    setTimeout(() => stop.abort(), 100);
    await expect(waiting).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);
    await lock.unlock();
  });
});
