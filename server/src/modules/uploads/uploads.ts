import type { Server } from "@tus/server";
import type { FastifyBaseLogger } from "fastify";
import type { UploadsConfig } from "../../config.js";
import type { Db } from "../../db/database.js";
import { API_PREFIX } from "../../http/error-handler.js";
import type { BlobStore } from "../blobs/blob-store.js";
import { RoutingBlobStore } from "../blobs/routing-blob-store.js";
import { S3BlobStore } from "../blobs/s3-blob-store.js";
import type { IngestService } from "../ingest/ingest.service.js";
import { HashingFileStore, UPLOAD_LIFETIME_MS } from "./hashing-file-store.js";
import { S3UploadStaging } from "./s3-upload-staging.js";
import { buildTusServer } from "./tus-server.js";
import { DatabaseLocker, type LockSettings } from "./upload-locker.js";
import { DirectoryStaging, type UploadStaging } from "./upload-staging.js";
import { type UploadDoor, uploadsRoutes } from "./uploads.routes.js";
import { type UploadDestination, UploadsService } from "./uploads.service.js";

declare module "fastify" {
  interface FastifyInstance {
    /** The tus uploads: their staging, locks and completion (the start-up pass and the tests reach them here). */
    uploads: UploadsModule;
  }
}

export interface UploadsModule {
  tus: Server;
  staging: UploadStaging;
  locker: DatabaseLocker;
  service: UploadsService;
  /** The user's door (/uploads) and any other (the share links' visitors' /shared/uploads). */
  routes: ReturnType<typeof uploadsRoutes>;
}

/**
 * Uploads in progress go where every API node sees them: the S3 bucket when
 * configured (and the blobs are there too), else the uploads directory (local,
 * or mounted by every node).
 */
function buildStaging(config: UploadsConfig, store: BlobStore): UploadStaging {
  if (config.store === "s3") {
    // Staged in the built-in bucket; a library with another target gets its originals moved on (StoragePlacement.settle).
    const bucket = store instanceof RoutingBlobStore ? store.builtIn : store;
    if (!(bucket instanceof S3BlobStore) || !config.s3) {
      throw new Error("uploads in S3 (DAMS_UPLOADS_STORE=s3) need the blobs in S3 too (DAMS_STORAGE=s3)");
    }
    return new S3UploadStaging(config.s3, bucket);
  }
  return new DirectoryStaging(new HashingFileStore(config.directory), store);
}

/** The resumable upload endpoint at /dams/api/v1/uploads; built once in the composition root. */
export function buildUploads(deps: {
  config: UploadsConfig;
  db: Db;
  store: BlobStore;
  /** What a finished upload becomes: a story, through the ingest command. */
  ingest: Pick<IngestService, "ingestFile" | "madeBy" | "checkRoom" | "checkTarget">;
  log: FastifyBaseLogger;
  locks?: LockSettings;
  /** Where else an upload may go, by its Upload-Metadata `target` (the network disk). */
  destinations?: Record<string, UploadDestination>;
  /** Other ways in, each with its own tus endpoint on the same staging, locks and completion. */
  doors?: UploadDoor[];
}): UploadsModule {
  const staging = buildStaging(deps.config, deps.store);
  const locker = new DatabaseLocker(deps.db, deps.locks);
  const service = new UploadsService({
    staging,
    ingest: deps.ingest,
    locker,
    log: deps.log,
    destinations: deps.destinations,
  });
  const tusAt = (path: string) =>
    buildTusServer({
      path: `${API_PREFIX}${path}`,
      maxBytes: deps.config.maxBytes,
      staging,
      locker,
      service,
      log: deps.log,
    });
  const tus = tusAt("/uploads");
  const { chunkBytes, wholeMaxBytes } = deps.config;
  const shared = { staging, service, blobs: deps.store, chunkBytes, wholeMaxBytes };
  const others = (deps.doors ?? []).map((door) => uploadsRoutes({ ...shared, tus: tusAt(door.path), door }));
  const mine = uploadsRoutes({ ...shared, tus });
  const routes: ReturnType<typeof uploadsRoutes> = async (app) => {
    await app.register(mine);
    for (const other of others) await app.register(other);
  };
  return { tus, staging, locker, service, routes };
}

/**
 * Completes finished uploads a crash left without their story, deletes
 * unfinished uploads older than their lifetime (7 days), and locks whose lease
 * ran out a day ago; for the periodic maintenance job. Returns the deleted
 * uploads' ids.
 */
export async function removeAbandonedUploads(uploads: UploadsModule, now = new Date()): Promise<string[]> {
  await uploads.service.completeStranded();
  await uploads.locker.removeStale(24 * 60 * 60 * 1000, now.getTime());
  return uploads.staging.removeAbandoned(UPLOAD_LIFETIME_MS, now);
}
