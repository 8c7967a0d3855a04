import type { BlobLocator } from "../blobs/routing-blob-store.js";
import type { StorageRepository } from "./storage.repository.js";
import { BUILT_IN_TARGET, type TargetStores } from "./target-stores.js";

/** Answers the routing store from blob_locations: which target's store holds a key. */
export class TargetBlobLocator implements BlobLocator {
  constructor(
    private readonly rows: StorageRepository,
    private readonly stores: TargetStores,
  ) {}

  async locate(key: string) {
    const location = await this.rows.location(key);
    if (!location) return null;
    return {
      current: location.targetId === BUILT_IN_TARGET ? null : await this.stores.of(location.targetId),
      previous: location.previousTargetId === null ? null : await this.stores.of(location.previousTargetId),
    };
  }

  async forget(key: string): Promise<void> {
    await this.rows.deleteLocation(key);
  }
}
