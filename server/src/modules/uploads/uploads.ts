import type { Server } from "@tus/server";
import type { FastifyBaseLogger } from "fastify";
import type { UploadsConfig } from "../../config.js";
import type { Db } from "../../db/database.js";
import { API_PREFIX } from "../../http/error-handler.js";
import type { BlobStore } from "../blobs/blob-store.js";
import { BlobsRepository } from "../blobs/blobs.repository.js";
import { HashingFileStore } from "./hashing-file-store.js";
import { buildTusServer } from "./tus-server.js";
import type { UploadSink } from "./upload-sink.js";
import { uploadsRoutes } from "./uploads.routes.js";
import { UploadsService } from "./uploads.service.js";

export interface UploadsModule {
  tus: Server;
  fileStore: HashingFileStore;
  service: UploadsService;
  routes: ReturnType<typeof uploadsRoutes>;
}

/** The resumable upload endpoint at /dams/api/v1/uploads; built once in the composition root. */
export function buildUploads(deps: {
  config: UploadsConfig;
  db: Db;
  store: BlobStore;
  sink: UploadSink;
  log: FastifyBaseLogger;
}): UploadsModule {
  const fileStore = new HashingFileStore(deps.config.directory);
  const service = new UploadsService({
    uploads: fileStore,
    store: deps.store,
    blobs: new BlobsRepository(deps.db),
    sink: deps.sink,
    log: deps.log,
  });
  const tus = buildTusServer({
    path: `${API_PREFIX}/uploads`,
    maxBytes: deps.config.maxBytes,
    fileStore,
    service,
    log: deps.log,
  });
  return { tus, fileStore, service, routes: uploadsRoutes({ tus, fileStore }) };
}

/** Deletes unfinished uploads older than their lifetime (7 days); for a periodic job. Returns their ids. */
export async function removeAbandonedUploads(uploads: UploadsModule, now = new Date()): Promise<string[]> {
  return uploads.fileStore.removeAbandoned(undefined, now);
}
