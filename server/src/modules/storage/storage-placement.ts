import type { TargetBlobLocator } from "./blob-locator.js";
import { moveBlob } from "./move-library.job.js";
import type { StorageRepository } from "./storage.repository.js";
import type { StoresById } from "./storage-moves.service.js";
import { BUILT_IN_TARGET } from "./target-stores.js";

/**
 * Where a library's new originals go: the ingest places the new key in the
 * library's target before its bytes are stored, so the routing store writes
 * them there.
 */
export class StoragePlacement {
  constructor(
    private readonly rows: StorageRepository,
    private readonly stores: StoresById,
    private readonly targetOfLibrary: (libraryId: string, bucketId?: string | null) => Promise<string>,
    /** Told of each new key placed and settled here, so the store's writes need not read its row back. */
    private readonly locator?: Pick<TargetBlobLocator, "placed" | "settled">,
  ) {}

  /**
   * Places a new key in the library's target (`bucketId`: the library's, when the caller has read it)
   * and answers that target, for `settle`.
   */
  async placeNewOriginal(libraryId: string, key: string, bucketId?: string | null): Promise<string> {
    const targetId = await this.targetOfLibrary(libraryId, bucketId);
    if (targetId !== BUILT_IN_TARGET) {
      await this.rows.setLocation(key, { targetId, previousTargetId: null }, new Date().toISOString());
    }
    this.locator?.placed(key, targetId);
    return targetId;
  }

  /**
   * After the bytes were stored: an upload staged in the built-in bucket is
   * moved there by a copy inside that bucket, whatever its placement; such a
   * blob is moved on to its target now. `targetId` is what `placeNewOriginal`
   * answered for this new key (no one else knows the key yet, so its location
   * row is still the one placed: it is not read again).
   */
  async settle(key: string, targetId: string): Promise<void> {
    this.locator?.settled(key);
    if (targetId === BUILT_IN_TARGET) return;
    if (await (await this.stores.of(targetId)).stat(key)) return;
    if (!(await this.stores.of(BUILT_IN_TARGET).then((store) => store.stat(key)))) return;
    await this.rows.deleteLocation(key);
    await moveBlob({ rows: this.rows, stores: this.stores }, key, targetId);
  }
}
