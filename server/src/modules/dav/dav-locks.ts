import { randomUUID } from "node:crypto";

/** A WebDAV write lock (RFC 4918 section 6) on a path of one user's disk. */
export interface DavLock {
  token: string;
  userId: string;
  /** Segments joined with "/", "" for the root. */
  path: string;
  depth: "0" | "infinity";
  scope: "exclusive" | "shared";
  /** The client's <owner> content, as XML. */
  owner: string;
  timeoutSeconds: number;
  expiresAt: number;
}

export const MAX_LOCK_SECONDS = 3600;

function within(path: string, root: string): boolean {
  return root === "" || path === root || path.startsWith(`${root}/`);
}

/**
 * The locks of every user's disk, in this process's memory (docs/disk.md):
 * they end with their timeout, with UNLOCK, or when the process stops.
 */
export class DavLocks {
  readonly #locks = new Map<string, DavLock>();

  constructor(private readonly clock: () => number = Date.now) {}

  #live(): DavLock[] {
    const now = this.clock();
    const live: DavLock[] = [];
    for (const [token, lock] of this.#locks) {
      if (lock.expiresAt <= now) this.#locks.delete(token);
      else live.push(lock);
    }
    return live;
  }

  /** Locks whose scope takes in `path`: on it, or depth infinity on a folder above it. */
  covering(userId: string, path: string): DavLock[] {
    return this.#live().filter(
      (lock) =>
        lock.userId === userId && (lock.path === path || (lock.depth === "infinity" && within(path, lock.path))),
    );
  }

  /** Locks on `path` or anything below it. */
  below(userId: string, path: string): DavLock[] {
    return this.#live().filter((lock) => lock.userId === userId && within(lock.path, path));
  }

  find(userId: string, token: string): DavLock | undefined {
    const lock = this.#locks.get(token);
    if (!lock || lock.userId !== userId || lock.expiresAt <= this.clock()) return undefined;
    return lock;
  }

  /** A new lock, or undefined when one in the way conflicts (an exclusive lock, or ours is exclusive). */
  take(input: Omit<DavLock, "token" | "expiresAt">): DavLock | undefined {
    const inTheWay = [
      ...this.covering(input.userId, input.path),
      ...(input.depth === "infinity" ? this.below(input.userId, input.path) : []),
    ];
    if (inTheWay.some((lock) => lock.scope === "exclusive" || input.scope === "exclusive")) return undefined;
    const lock: DavLock = {
      ...input,
      token: `urn:uuid:${randomUUID()}`,
      expiresAt: this.clock() + input.timeoutSeconds * 1000,
    };
    this.#locks.set(lock.token, lock);
    return lock;
  }

  refresh(lock: DavLock, timeoutSeconds: number): DavLock {
    lock.timeoutSeconds = timeoutSeconds;
    lock.expiresAt = this.clock() + timeoutSeconds * 1000;
    return lock;
  }

  release(token: string): void {
    this.#locks.delete(token);
  }

  /** Locks of `path` and below end with it (deleted or moved away: RFC 4918 7.7, locks do not move). */
  drop(userId: string, path: string): void {
    for (const lock of this.below(userId, path)) this.#locks.delete(lock.token);
  }
}

/** `Timeout: Second-600, Infinite` → seconds, at most MAX_LOCK_SECONDS. */
export function lockTimeout(header: string | undefined): number {
  for (const part of (header ?? "").split(",")) {
    const match = /^\s*Second-(\d+)\s*$/i.exec(part);
    if (match?.[1]) return Math.max(1, Math.min(MAX_LOCK_SECONDS, Number(match[1])));
    if (/^\s*Infinite\s*$/i.test(part)) return MAX_LOCK_SECONDS;
  }
  return MAX_LOCK_SECONDS;
}

/** One condition of an If header list: a state token or an entity tag, maybe negated. */
export interface IfCondition {
  not: boolean;
  token?: string;
  etag?: string;
}

/** A list of conditions, for a tagged resource (an href) or the request's. */
export interface IfList {
  resource?: string;
  conditions: IfCondition[];
}

/** Parses an If header (RFC 4918 10.4); null when it cannot be read (a 400). */
export function parseIf(header: string): IfList[] | null {
  const lists: IfList[] = [];
  let resource: string | undefined;
  let rest = header.trim();
  while (rest.length > 0) {
    if (rest.startsWith("<")) {
      const end = rest.indexOf(">");
      if (end < 0) return null;
      resource = rest.slice(1, end);
      rest = rest.slice(end + 1).trim();
      continue;
    }
    if (!rest.startsWith("(")) return null;
    const end = rest.indexOf(")");
    if (end < 0) return null;
    const conditions: IfCondition[] = [];
    let inner = rest.slice(1, end).trim();
    while (inner.length > 0) {
      let not = false;
      if (/^not\b/i.test(inner)) {
        not = true;
        inner = inner.slice(3).trim();
      }
      if (inner.startsWith("<")) {
        const close = inner.indexOf(">");
        if (close < 0) return null;
        conditions.push({ not, token: inner.slice(1, close) });
        inner = inner.slice(close + 1).trim();
      } else if (inner.startsWith("[")) {
        const close = inner.indexOf("]");
        if (close < 0) return null;
        conditions.push({ not, etag: inner.slice(1, close).trim() });
        inner = inner.slice(close + 1).trim();
      } else {
        return null;
      }
    }
    if (conditions.length === 0) return null;
    lists.push({ resource, conditions });
    rest = rest.slice(end + 1).trim();
  }
  return lists.length > 0 ? lists : null;
}
