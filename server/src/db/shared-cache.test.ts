import { sql } from "kysely";
import { expect, it } from "vitest";
import { describeEachDialect, useTestDbTwice } from "../test/dialects.js";
import { until } from "../test/eventually.js";
import { notificationsReady } from "./notifications.js";
import { SharedCache } from "./shared-cache.js";

describeEachDialect("a cache kept true across nodes", (dialect) => {
  const dbs = useTestDbTwice(dialect);
  // Two nodes: two connections on PostgreSQL; on SQLite (one node) the same process.
  const nodes = () => [dbs().db, dialect === "postgres" ? dbs().other : dbs().db] as const;

  async function pair(name: string, ttlMs = 60_000) {
    const [a, b] = nodes();
    const caches = [
      new SharedCache<string>(a.notifications, name, { ttlMs }),
      new SharedCache<string>(b.notifications, name, { ttlMs }),
    ] as const;
    await notificationsReady(a.notifications);
    await notificationsReady(b.notifications);
    return caches;
  }

  it("drops an entry on the other node when it is invalidated on this one, by key or by tag", async () => {
    const [onA, onB] = await pair("principals");
    let loads = 0;
    const load = async () => `principal ${++loads}`;
    expect(await onB.get("token-1", load, ["user:alice"])).toBe("principal 1");
    expect(await onB.get("token-1", load, ["user:alice"])).toBe("principal 1");
    await onB.get("token-2", load, ["user:alice"]);
    await onB.get("token-3", load, ["user:bob"]);
    expect(onB.size).toBe(3);
    await onA.invalidate("user:alice");
    await until(() => onB.size === 1);
    expect(await onB.get("token-1", load, ["user:alice"])).toBe("principal 4");
    await onA.invalidate("token-3");
    await until(() => onB.size === 1);
    onA.close();
    onB.close();
  });

  it("leaves caches of another name alone, and sends nothing for a rolled-back transaction", async () => {
    const [onA, onB] = await pair("menus");
    const [, other] = await pair("roles");
    await onB.get("tree", async () => "menu tree");
    if (dialect === "postgres") await onB.get("marker", async () => "marker");
    await other.get("tree", async () => "roles");
    const [a] = nodes();
    await a.kysely
      .transaction()
      .execute(async (transaction) => {
        await onA.invalidate("tree", transaction);
        throw new Error("roll back");
      })
      .catch(() => {});
    await onA.invalidate("unrelated");
    if (dialect === "postgres") {
      // Notifications arrive in the order they were sent: once this marker's has dropped it on B, a rolled-back
      // one (had it been sent) would have arrived too.
      await onA.invalidate("marker");
      await until(() => onB.size === 1);
      expect(await onB.get("tree", async () => "loaded again")).toBe("menu tree");
    }
    await a.kysely.transaction().execute((transaction) => onA.invalidate("tree", transaction));
    await until(() => onB.size === 0);
    expect(other.size).toBe(1);
    for (const cache of [onA, onB, other]) cache.close();
  });

  it("keeps an entry no longer than its lifetime, and no failed load; peek answers only a loaded, fresh one", async () => {
    let now = 0;
    const cache = new SharedCache<string>(nodes()[0].notifications, "stats", { ttlMs: 1000, now: () => now });
    let loads = 0;
    const first = cache.get("x", async () => `v${++loads}`);
    expect(cache.peek("x")).toBeUndefined(); // not loaded yet: peek never waits
    await first;
    expect(cache.peek("x")).toBe("v1");
    now = 999;
    expect(await cache.get("x", async () => `v${++loads}`)).toBe("v1");
    now = 1000;
    expect(cache.peek("x")).toBeUndefined();
    expect(await cache.get("x", async () => `v${++loads}`)).toBe("v2");
    await expect(cache.get("y", async () => Promise.reject(new Error("database away")))).rejects.toThrow();
    expect(await cache.get("y", async () => "loaded")).toBe("loaded");
    cache.close();
  });

  it("tags an entry by its loaded value, and keeps no load that a drop overlapped", async () => {
    const cache = new SharedCache<{ user: string }>(nodes()[0].notifications, "signed-in-test", { ttlMs: 60_000 });
    const byUser = (value: { user: string }) => [`user:${value.user}`];
    await cache.get("token-a", async () => ({ user: "alice" }), byUser);
    await cache.invalidate("user:alice");
    expect(cache.size).toBe(0);
    // A load that read the database before a change and answers after it: served to its callers, not kept.
    let answer: (value: { user: string }) => void = () => {};
    const slow = cache.get("token-b", () => new Promise((resolve) => (answer = resolve)), byUser);
    await cache.invalidate("user:bob");
    answer({ user: "bob" });
    expect(await slow).toEqual({ user: "bob" });
    let loads = 0;
    expect(await cache.get("token-b", async () => ({ user: `bob ${++loads}` }), byUser)).toEqual({ user: "bob 1" });
    expect(await cache.get("token-b", async () => ({ user: `bob ${++loads}` }), byUser)).toEqual({ user: "bob 1" });
    cache.close();
  });

  it.runIf(dialect === "postgres")("drops everything when notices may have been missed", async () => {
    const [, onB] = await pair("gaps");
    await onB.get("k", async () => "v");
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
      where datname = current_database() and query like 'listen %' and pid <> pg_backend_pid()`.execute(
      dbs().db.kysely,
    );
    await until(() => onB.size === 0);
    onB.close();
  });
});
