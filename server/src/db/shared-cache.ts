import type { Kysely } from "kysely";
import type { Notifications } from "./notifications.js";
import type { Database } from "./schema.js";

interface Entry<V> {
  value: Promise<V>;
  /** The value once loaded, for `peek`. */
  loaded?: { value: V };
  expiresAt: number;
  tags: readonly string[];
}

/** An entry's tags: given, or read from the loaded value (a principal's user and role are known once loaded). */
export type Tags<V> = readonly string[] | ((value: V) => readonly string[]);

/**
 * A cache in one process that stays true across nodes: an entry lives at most
 * `ttlMs`, and `invalidate(keyOrTag)` drops it on every node of the database
 * (a notice through `db.notifications`, topic `cache.invalidate`; given a
 * transaction, only once it commits). When notices may have been missed (the
 * listening connection was lost), every entry is dropped. On SQLite (one node)
 * the same calls work within the process.
 *
 * Entries carry tags, so one invalidation reaches every entry about a thing:
 * a principal cached per token, tagged `user:<id>`, is dropped on every node
 * when that user is disabled or their role changes.
 */
export class SharedCache<V> {
  readonly #entries = new Map<string, Entry<V>>();
  readonly #unsubscribe: (() => void)[];
  /** Counts drops; a load that overlapped one is answered but not kept (it may have read what was dropped). */
  #drops = 0;

  constructor(
    private readonly notifications: Notifications,
    /** Names the cache in notices: only caches of the same name react. */
    readonly name: string,
    private readonly options: { ttlMs: number; maxEntries?: number; now?: () => number },
  ) {
    if (/\s/.test(name)) throw new Error(`a cache name has no spaces: ${name}`);
    this.#unsubscribe = [
      notifications.listen("cache.invalidate", (payload) => {
        const space = payload.indexOf(" ");
        if (payload.slice(0, space) === this.name) this.#drop(payload.slice(space + 1));
      }),
      notifications.onGap(() => this.clear()),
    ];
  }

  /**
   * The cached value, or `load()`'s (cached with `tags`); a failed load is not
   * kept, nor one during which anything was dropped from this cache.
   */
  get(key: string, load: () => Promise<V>, tags: Tags<V> = []): Promise<V> {
    const now = this.#now();
    const cached = this.#entries.get(key);
    if (cached && cached.expiresAt > now) return cached.value;
    const drops = this.#drops;
    const value = load();
    const entry: Entry<V> = {
      value,
      expiresAt: now + this.options.ttlMs,
      tags: typeof tags === "function" ? [] : tags,
    };
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    const forget = () => {
      if (this.#entries.get(key) === entry) this.#entries.delete(key);
    };
    value.then((loaded) => {
      entry.loaded = { value: loaded };
      if (typeof tags === "function") entry.tags = tags(loaded);
      if (this.#drops !== drops) forget();
    }, forget);
    const max = this.options.maxEntries ?? 10_000;
    if (this.#entries.size > max) this.#entries.delete(this.#entries.keys().next().value!);
    return value;
  }

  /**
   * The cached value when it is loaded and fresh, without waiting: for hot
   * paths that can answer at once when the value is known (and call `get`
   * when it is not).
   */
  peek(key: string): V | undefined {
    const cached = this.#entries.get(key);
    return cached?.loaded && cached.expiresAt > this.#now() ? cached.loaded.value : undefined;
  }

  /** Drops the entry with this key in this process only (e.g. what it holds has expired). */
  forget(key: string): void {
    this.#entries.delete(key);
  }

  /** Drops the entry with this key, and every entry with this tag, on every node. */
  async invalidate(keyOrTag: string, transaction?: Kysely<Database>): Promise<void> {
    // At once here (the notice comes back too, harmlessly), so this node never serves the old value.
    this.#drop(keyOrTag);
    await this.notifications.notify("cache.invalidate", `${this.name} ${keyOrTag}`, transaction);
  }

  /** Drops every entry in this process. */
  clear(): void {
    this.#drops++;
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Stops listening (the app is closing). */
  close(): void {
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    this.clear();
  }

  #drop(keyOrTag: string): void {
    this.#drops++;
    this.#entries.delete(keyOrTag);
    for (const [key, entry] of this.#entries) if (entry.tags.includes(keyOrTag)) this.#entries.delete(key);
  }

  #now(): number {
    return this.options.now?.() ?? Date.now();
  }
}
