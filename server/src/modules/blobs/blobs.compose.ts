import type { StorageConfig } from "../../config.js";
import type { Db } from "../../db/database.js";
import type { BlobStore } from "./blob-store.js";
import { BlobSweeper, type SweepTargets, singleStoreTargets } from "./blob-sweeper.js";
import { BlobsRepository } from "./blobs.repository.js";
import { BlobsService } from "./blobs.service.js";
import { buildBlobStore } from "./build-blob-store.js";

export interface Blobs {
  /** Where originals and renditions live. */
  store: BlobStore;
  /** The `blobs` rows of stored originals. */
  registry: BlobsService;
  /** Removes stored files no row or story points at (run by the maintenance job). */
  sweeper: BlobSweeper;
}

/**
 * Builds the blob store, the registry and the sweeper once (called by app.ts); `store` replaces the configured one,
 * `targets` are what the sweeper walks (the storage module's targets; without them, the store alone).
 */
export function buildBlobs(db: Db, config: StorageConfig, store?: BlobStore, targets?: SweepTargets): Blobs {
  const rows = new BlobsRepository(db);
  const blobStore = store ?? buildBlobStore(config);
  return {
    store: blobStore,
    registry: new BlobsService(rows),
    sweeper: new BlobSweeper(rows, targets ?? singleStoreTargets(blobStore)),
  };
}
