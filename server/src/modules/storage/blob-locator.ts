import type { BlobLocator } from "../blobs/routing-blob-store.js";
import type { StorageRepository } from "./storage.repository.js";
import { BUILT_IN_TARGET, type TargetStores } from "./target-stores.js";

/** How long a new key's placement is answered from memory at most (its ingest settles it within moments). */
const PLACED_MS = 60_000;

/**
 * Answers the routing store from blob_locations: which target's store holds a
 * key. A new original's key placed by this process (StoragePlacement) is
 * answered from memory until its ingest settles it: its row (or, for the
 * built-in target, its absence) was written here a moment ago, and nobody
 * else knows the key yet.
 */
export class TargetBlobLocator implements BlobLocator {
  readonly #placed = new Map<string, { targetId: string; at: number }>();

  constructor(
    private readonly rows: StorageRepository,
    private readonly stores: TargetStores,
  ) {}

  /** A new key was placed in `targetId` by this process. */
  placed(key: string, targetId: string, now = Date.now()): void {
    // Entries an ingest that failed never settled go after a while (the oldest come first).
    for (const [oldKey, entry] of this.#placed) {
      if (now - entry.at < PLACED_MS) break;
      this.#placed.delete(oldKey);
    }
    this.#placed.set(key, { targetId, at: now });
  }

  /** The new key's ingest is over: its location is read from its row again. */
  settled(key: string): void {
    this.#placed.delete(key);
  }

  async locate(key: string) {
    const placed = this.#placed.get(key);
    if (placed && Date.now() - placed.at < PLACED_MS) {
      if (placed.targetId === BUILT_IN_TARGET) return null;
      return { current: await this.stores.of(placed.targetId), previous: null };
    }
    const location = await this.rows.location(key);
    if (!location) return null;
    return {
      current: location.targetId === BUILT_IN_TARGET ? null : await this.stores.of(location.targetId),
      previous: location.previousTargetId === null ? null : await this.stores.of(location.previousTargetId),
    };
  }

  async forget(key: string): Promise<void> {
    this.#placed.delete(key);
    await this.rows.deleteLocation(key);
  }
}
