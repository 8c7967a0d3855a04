import path from "node:path";
import type { FastifyInstance } from "fastify";
import { registerMonitorMetricsOf, repairAtStart } from "../app-setup.js";
import { SystemVideoRenderTools } from "../media/index.js";
import { buildDav } from "../modules/dav/dav.compose.js";
import { buildDisk } from "../modules/disk/disk.compose.js";
import { registerMediaProcessing } from "../modules/processing/processing.compose.js";
import { shareDropDoor } from "../modules/shares/share-drops.routes.js";
import { buildUploads } from "../modules/uploads/uploads.js";
import { buildUrlIngest } from "../modules/url-ingest/url-ingest.compose.js";
import { buildVideoEdit } from "../modules/video-edit/video-edit.compose.js";
import type { Foundation } from "./foundation.js";
import type { SharingArea } from "./sharing.js";
import type { StoriesArea } from "./stories.js";

/** Files coming in and being worked on: processing, the network disk and WebDAV, uploads, URL ingest, video edits. */
export type FilesArea = ReturnType<typeof composeFiles>;

export function composeFiles(
  app: FastifyInstance,
  foundation: Foundation,
  { stories, folders, relations, ingest }: StoriesArea,
  { shares, publishing, presets }: SharingArea,
) {
  const { config, db, audit, users, access, libraries, jobs, blobs, media, onBlobDeleteError } = foundation;
  // Modules register the handlers of the jobs they do the work of (docs/architecture.md, "Jobs").
  const processingRepair = registerMediaProcessing({
    jobs,
    stories: stories.stories,
    blobs: blobs.store,
    media,
    config: config.media,
    workDir: path.join(config.dataDir, "tmp", "processing"),
    onBlobDeleteError,
  });
  // The network disk: each user's space; tus uploads with Upload-Metadata target=disk land there.
  const disk = buildDisk({
    db,
    audit: audit.log,
    blobs: blobs.store,
    users,
    roles: access.roles,
    ingest,
    libraries,
    storyAccess: stories.access,
    downloads: stories.downloads,
    workDir: path.join(config.dataDir, "tmp", "disk"),
    onBlobDeleteError,
  });
  // The disk over WebDAV at /dav (class 1 and 2), for Finder, Windows Explorer and phones' file apps; beside it
  // /dav-shared (what colleagues shared) and /dav-libraries (the readable libraries, read-only).
  const dav = buildDav({
    disk: disk.disk,
    diskShares: disk.shares,
    libraries: { libraries, folders, stories: stories.queries, downloads: stories.downloads },
    blobs: blobs.store,
    workDir: path.join(config.dataDir, "tmp", "dav"),
  });
  dav.registerMethods(app);
  const uploads = buildUploads({
    config: config.uploads,
    db,
    store: blobs.store,
    ingest,
    log: app.log,
    destinations: { disk: disk.uploadDestination, "share-drop": shares.drops.destination },
    // Share links' visitors drop files here (docs/sharing.md, "Upload drop"); the share token is the access.
    doors: [shareDropDoor],
  });
  app.decorate("uploads", uploads);
  registerMonitorMetricsOf(foundation.metrics, {
    db,
    config,
    ...stories,
    libraries,
    jobs,
    ...publishing,
    ...uploads,
    users,
  });
  app.decorate("processingRepair", processingRepair);
  repairAtStart(app, uploads, processingRepair);
  const urlIngestRoutes = buildUrlIngest({ config: config.urlIngest, db, media, jobs, ingest, libraries, folders });
  const videoEdit = buildVideoEdit({
    db,
    blobs: blobs.store,
    media: new SystemVideoRenderTools(config.media),
    mediaConfig: config.media,
    dataDir: config.dataDir,
    jobs,
    stories,
    libraries,
    relations,
    blobRegistry: blobs.registry,
    watermarkImage: (presetId) => presets.watermarks.image(presetId),
  });
  return { processingRepair, disk, dav, uploads, urlIngestRoutes, videoEdit };
}
