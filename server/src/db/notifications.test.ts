import { sql } from "kysely";
import { expect, it } from "vitest";
import { describeEachDialect, useTestDbTwice } from "../test/dialects.js";
import { until } from "../test/eventually.js";
import { notificationsReady } from "./notifications.js";

describeEachDialect("notifications between processes", (dialect) => {
  const dbs = useTestDbTwice(dialect);
  // On SQLite notices stay in the process that sends them; on PostgreSQL they reach every connection.
  const receiver = () => (dialect === "postgres" ? dbs().other : dbs().db);

  it("delivers a notice to every listener of its topic, and to no other topic", async () => {
    const seen: string[] = [];
    const stop = receiver().notifications.listen("jobs.enqueued", (payload) => seen.push(payload));
    const other = receiver().notifications.listen("jobs.cancel", (payload) => seen.push(`cancel ${payload}`));
    await notificationsReady(receiver().notifications);
    await dbs().db.notifications.notify("jobs.enqueued", "media.process 台风");
    await until(() => seen.length === 1);
    expect(seen).toEqual(["media.process 台风"]);
    stop();
    other();
  });

  it("sends a notice given a transaction when it commits, and never when it rolls back", async () => {
    const seen: string[] = [];
    const stop = receiver().notifications.listen("cache.invalidate", (payload) => seen.push(payload));
    await notificationsReady(receiver().notifications);
    const { db } = dbs();
    await db.kysely
      .transaction()
      .execute(async (transaction) => {
        await db.notifications.notify("cache.invalidate", "rolled-back", transaction);
        throw new Error("roll back");
      })
      .catch(() => {});
    await db.kysely.transaction().execute(async (transaction) => {
      await db.notifications.notify("cache.invalidate", "committed", transaction);
    });
    await db.notifications.notify("cache.invalidate", "after");
    await until(() => seen.includes("after"));
    // SQLite has no transactional notices: there the rolled-back one arrives too (one node, nothing to miss).
    expect(seen.filter((payload) => payload !== "rolled-back")).toEqual(["committed", "after"]);
    if (dialect === "postgres") expect(seen).not.toContain("rolled-back");
    stop();
  });

  it("refuses a notice too long for NOTIFY", async () => {
    await expect(dbs().db.notifications.notify("cache.invalidate", "x".repeat(8000))).rejects.toThrow(/too long/);
  });

  it.runIf(dialect === "postgres")(
    "reconnects after losing its connection, and says that notices may have been missed",
    async () => {
      const listener = receiver();
      const seen: string[] = [];
      let gaps = 0;
      const stop = listener.notifications.listen("jobs.enqueued", (payload) => seen.push(payload));
      const stopGaps = listener.notifications.onGap(() => {
        gaps += 1;
      });
      await notificationsReady(listener.notifications);
      const before = gaps;
      // What a server restart does to the listening connection.
      await sql`select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and query like 'listen %'`.execute(dbs().db.kysely);
      await until(() => gaps > before);
      await dbs().db.notifications.notify("jobs.enqueued", "after the restart");
      await until(() => seen.includes("after the restart"));
      stop();
      stopGaps();
    },
  );
});
