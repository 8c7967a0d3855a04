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
    private readonly targetOfLibrary: (libraryId: string) => Promise<string>,
  ) {}

  async placeNewOriginal(libraryId: string, key: string): Promise<void> {
    const targetId = await this.targetOfLibrary(libraryId);
    if (targetId !== BUILT_IN_TARGET) {
      await this.rows.setLocation(key, { targetId, previousTargetId: null }, new Date().toISOString());
    }
  }

  /**
   * After the bytes were stored: an upload staged in the built-in bucket is
   * moved there by a copy inside that bucket, whatever its placement; such a
   * blob is moved on to its target now.
   */
  async settle(key: string): Promise<void> {
    const location = await this.rows.location(key);
    if (!location || location.targetId === BUILT_IN_TARGET) return;
    if (await (await this.stores.of(location.targetId)).stat(key)) return;
    if (!(await this.stores.of(BUILT_IN_TARGET).then((store) => store.stat(key)))) return;
    await this.rows.deleteLocation(key);
    await moveBlob({ rows: this.rows, stores: this.stores }, key, location.targetId);
  }
}
