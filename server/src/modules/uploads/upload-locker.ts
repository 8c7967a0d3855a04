import { randomUUID } from "node:crypto";
import os from "node:os";
import type { Lock, Locker, RequestRelease } from "@tus/utils";
import { ERRORS } from "@tus/utils";
import type { Db } from "../../db/database.js";

export interface LockSettings {
  /** How long a lock holds without renewal: a killed node's locks are free this long after it died. */
  leaseMs: number;
  /** How long a request waits for a lock before it is refused (tus's lock timeout). */
  acquireTimeoutMs: number;
}

export const DEFAULT_LOCK_SETTINGS: LockSettings = { leaseMs: 10_000, acquireTimeoutMs: 30_000 };

const RETRY_MIN_MS = 10;
const RETRY_MAX_MS = 250;
/** How often a waiting request asks the holder again to let go (its first notice may have been lost). */
const RELEASE_ASK_EVERY_MS = 2000;

function iso(milliseconds: number): string {
  return new Date(milliseconds).toISOString();
}

function sleep(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, milliseconds);
    signal.addEventListener("abort", done, { once: true });
  });
}

/**
 * tus upload locks in the database (`upload_locks`), so any API node can serve
 * the next PATCH of an upload: a lock is a row with a holder and a lease,
 * renewed while the request runs and deleted when it lets go; a node killed
 * mid-request leaves a row whose lease runs out. A request that finds the lock
 * taken asks its holder to let go, on whichever node it is (a notice through
 * the database: tus's "request release", which ends an interrupted PATCH), and
 * tries again until the holder has gone or the wait times out. Works the same
 * on SQLite (one node) and PostgreSQL.
 */
export class DatabaseLocker implements Locker {
  readonly node = `${os.hostname()}:${process.pid}`;
  /** Locks this process holds, by upload id: how to ask each holder to let go. */
  readonly #held = new Map<string, { holder: string; requestRelease: RequestRelease }>();
  /** Requests of this process waiting for a lock, woken when one is let go here. */
  readonly #waiting = new Map<string, Set<() => void>>();
  readonly #unlisten: () => void;

  constructor(
    readonly db: Db,
    readonly settings: LockSettings = DEFAULT_LOCK_SETTINGS,
  ) {
    this.#unlisten = db.notifications.listen("uploads.release", (id) => this.#releaseRequested(id));
  }

  newLock(id: string): Lock {
    return new DatabaseLock(id, this);
  }

  /** Stops answering release requests (the app is closing). */
  close(): void {
    this.#unlisten();
  }

  /** Takes the lock when nobody holds it or its lease ran out; true when this holder has it now. */
  async tryAcquire(id: string, holder: string): Promise<boolean> {
    const now = Date.now();
    const result = await this.db.kysely
      .insertInto("upload_locks")
      .values({ upload_id: id, holder, expires_at: iso(now + this.settings.leaseMs) })
      .onConflict((conflict) =>
        conflict
          .column("upload_id")
          .doUpdateSet({ holder, expires_at: iso(now + this.settings.leaseMs) })
          .where("upload_locks.expires_at", "<", iso(now)),
      )
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Extends the lease; false when the lock is no longer this holder's (it ran out and was taken). */
  async renew(id: string, holder: string): Promise<boolean> {
    const result = await this.db.kysely
      .updateTable("upload_locks")
      .set({ expires_at: iso(Date.now() + this.settings.leaseMs) })
      .where("upload_id", "=", id)
      .where("holder", "=", holder)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async release(id: string, holder: string): Promise<void> {
    await this.db.kysely.deleteFrom("upload_locks").where("upload_id", "=", id).where("holder", "=", holder).execute();
  }

  /** Deletes locks whose lease ran out long ago (left by killed nodes, for uploads nobody resumed). */
  async removeStale(olderThanMs: number, now = Date.now()): Promise<number> {
    const result = await this.db.kysely
      .deleteFrom("upload_locks")
      .where("expires_at", "<", iso(now - olderThanMs))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  held(id: string, holder: string, requestRelease: RequestRelease): void {
    this.#held.set(id, { holder, requestRelease });
  }

  letGo(id: string, holder: string): void {
    if (this.#held.get(id)?.holder === holder) this.#held.delete(id);
    for (const wake of this.#waiting.get(id) ?? []) wake();
  }

  askToRelease(id: string): Promise<void> {
    return this.db.notifications.notify("uploads.release", id);
  }

  wait(id: string, wake: () => void): () => void {
    const set = this.#waiting.get(id) ?? new Set();
    this.#waiting.set(id, set);
    set.add(wake);
    return () => {
      set.delete(wake);
      if (set.size === 0) this.#waiting.delete(id);
    };
  }

  #releaseRequested(id: string): void {
    const held = this.#held.get(id);
    if (held) void Promise.resolve(held.requestRelease()).catch(() => {});
  }
}

class DatabaseLock implements Lock {
  readonly #holder: string;
  #renewal: NodeJS.Timeout | undefined;

  constructor(
    private readonly id: string,
    private readonly locker: DatabaseLocker,
  ) {
    this.#holder = `${locker.node}/${randomUUID()}`;
  }

  async lock(stopSignal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const { id, locker } = this;
    const deadline = Date.now() + locker.settings.acquireTimeoutMs;
    let delay = RETRY_MIN_MS;
    let askedAt = 0;
    const wakeUp = new AbortController();
    const stopWaiting = locker.wait(id, () => wakeUp.abort());
    try {
      for (;;) {
        if (stopSignal.aborted) throw ERRORS.ERR_LOCK_TIMEOUT;
        if (await locker.tryAcquire(id, this.#holder)) break;
        if (Date.now() >= deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
        if (Date.now() - askedAt >= RELEASE_ASK_EVERY_MS) {
          askedAt = Date.now();
          await locker.askToRelease(id);
        }
        const pause = AbortSignal.any([stopSignal, wakeUp.signal]);
        await sleep(Math.min(delay, deadline - Date.now()), pause);
        delay = Math.min(RETRY_MAX_MS, delay * 2);
      }
    } finally {
      stopWaiting();
    }
    locker.held(id, this.#holder, requestRelease);
    this.#keepRenewed(requestRelease);
  }

  /** Renews the lease every third of it; a lock found taken (the lease ran out) makes the request let go. */
  #keepRenewed(requestRelease: RequestRelease): void {
    const { id, locker } = this;
    let expiresAt = Date.now() + locker.settings.leaseMs;
    const renew = async () => {
      const sent = Date.now();
      try {
        if (await locker.renew(id, this.#holder)) expiresAt = sent + locker.settings.leaseMs;
        else await requestRelease();
      } catch {
        // The database is away: once the lease has run out another node may hold the lock; stop this request.
        if (Date.now() >= expiresAt) await Promise.resolve(requestRelease()).catch(() => {});
      }
    };
    this.#renewal = setInterval(() => void renew(), Math.max(100, Math.floor(locker.settings.leaseMs / 3)));
    this.#renewal.unref();
  }

  async unlock(): Promise<void> {
    clearInterval(this.#renewal);
    this.#renewal = undefined;
    try {
      await this.locker.release(this.id, this.#holder);
    } finally {
      this.locker.letGo(this.id, this.#holder);
    }
  }
}
