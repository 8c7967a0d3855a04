import path from "node:path";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/database.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { BlobStore } from "../blobs/blob-store.js";
import { RoutingBlobStore } from "../blobs/routing-blob-store.js";
import { CredentialsCipher } from "../channels/credentials-cipher.js";
import type { JobEnqueuer, JobRegistrar } from "../jobs/job-types.js";
import { TargetBlobLocator } from "./blob-locator.js";
import { integrityCheckJob, type RegisteredBlobs } from "./integrity-check.job.js";
import { IntegrityCheckRepository } from "./integrity-check.repository.js";
import { IntegrityCheckService } from "./integrity-check.service.js";
import { LibraryQuotas } from "./library-quotas.js";
import { moveLibraryJob } from "./move-library.job.js";
import { StorageRepository } from "./storage.repository.js";
import { type LibraryBlobs, StorageMovesService } from "./storage-moves.service.js";
import { StoragePlacement } from "./storage-placement.js";
import { type StorageLibraries, StorageTargetsService } from "./storage-targets.service.js";
import { StorageSweepTargets } from "./sweep-targets.js";
import { TargetStores } from "./target-stores.js";

export interface StorageModule {
  /** The store every other module uses: each key goes to the target it lives in. */
  store: RoutingBlobStore;
  targets: StorageTargetsService;
  moves: StorageMovesService;
  placement: StoragePlacement;
  stores: TargetStores;
  rows: StorageRepository;
  /** The integrity checks of the stored originals (the storage monitor). */
  checks: IntegrityCheckService;
  /** Quotas per library: set on /manage/storage/setting, checked by the ingest. */
  quotas: LibraryQuotas;
  /** Every target as the orphan sweeper walks it. */
  sweepTargets: StorageSweepTargets;
  /** Set once the libraries and stories are built (they are built after the blob store). */
  connect(deps: Connections): void;
}

interface Connections {
  libraries: StorageLibraries;
  blobs: LibraryBlobs;
  /** The blob registry (the blobs module): what an integrity check compares with. */
  registry: RegisteredBlobs;
  jobs: JobEnqueuer & JobRegistrar;
}

/** Builds the storage targets, the routing blob store and the moves once (called by app.ts). */
export function buildStorage(
  db: Db,
  deps: {
    builtIn: BlobStore;
    /** Where the built-in store's keys are (target-stores.ts placeOf), so a target naming the same place is swept with it. */
    builtInPlace: string;
    dataDir: string;
    credentialsKey: Buffer;
    audit: AuditLog;
    log?: FastifyBaseLogger;
  },
): StorageModule {
  const rows = new StorageRepository(db.kysely, db.adapter);
  const cipher = new CredentialsCipher(deps.credentialsKey);
  const storeOptions = {
    builtIn: deps.builtIn,
    localRoot: path.join(deps.dataDir, "targets"),
    scratchDirectory: path.join(deps.dataDir, "tmp"),
    cipher,
  };
  const stores = new TargetStores(storeOptions, (id) => rows.target(id));
  let connected: Connections | undefined;
  const need = () => {
    if (!connected) throw new Error("the storage module is used before app.ts connected it");
    return connected;
  };
  const libraries = () => need().libraries;
  const targets = new StorageTargetsService({ db, rows, stores, storeOptions, cipher, audit: deps.audit, libraries });
  const moves = new StorageMovesService({
    db,
    rows,
    targets,
    libraries,
    blobs: {
      blobKeysOfLibrary: (libraryId) => need().blobs.blobKeysOfLibrary(libraryId),
      libraryBytes: (libraryId, executor) => need().blobs.libraryBytes(libraryId, executor),
    },
    jobs: { enqueue: (name, payload, options) => need().jobs.enqueue(name, payload, options) },
    audit: deps.audit,
  });
  const locator = new TargetBlobLocator(rows, stores);
  const store = new RoutingBlobStore(deps.builtIn, locator);
  const checkRows = new IntegrityCheckRepository(db.kysely);
  const checks = new IntegrityCheckService({ db, rows: checkRows, jobs: () => need().jobs, audit: deps.audit });
  const quotas = new LibraryQuotas({ db, audit: deps.audit, libraries, blobs: () => need().blobs });
  return {
    store,
    quotas,
    targets,
    moves,
    placement: new StoragePlacement(
      rows,
      stores,
      (libraryId, bucketId) => moves.targetOfLibrary(libraryId, bucketId),
      locator,
    ),
    stores,
    rows,
    checks,
    sweepTargets: new StorageSweepTargets(rows, stores, {
      builtIn: deps.builtInPlace,
      localRoot: storeOptions.localRoot,
    }),
    connect(deps2) {
      connected = deps2;
      deps2.jobs.register(moveLibraryJob({ rows, stores, blobs: deps2.blobs, log: deps.log }));
      deps2.jobs.register(
        integrityCheckJob({ rows: checkRows, store, registry: () => need().registry, log: deps.log }),
      );
    },
  };
}
