import path from "node:path";
import type { Db } from "../../db/database.js";
import type { MediaTools } from "../../media/index.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { BlobStore } from "../blobs/blob-store.js";
import type { Jobs } from "../jobs/jobs.compose.js";
import type { OutgoingCopies } from "../outgoing/outgoing-copies.js";
import type { StoryAccess } from "../stories/story-access.js";
import type { StoryDownloads } from "../stories/story-downloads.service.js";
import { DownloadPresetsService } from "./download-presets.service.js";
import { PresetsRepository } from "./presets.repository.js";
import { downloadPresetsRoutes, watermarkPresetsRoutes } from "./presets.routes.js";
import { RenditionMaker } from "./rendition-maker.js";
import { StoryFiles } from "./story-files.js";
import { WatermarksService } from "./watermarks.service.js";

export interface PresetsModule {
  watermarks: WatermarksService;
  /** The API other modules use: `rendition(presetId, ref)`, `ensureRendered(presetId, ref)`, `usable(actor)`. */
  downloads: DownloadPresetsService;
  routes: ReturnType<typeof watermarkPresetsRoutes>[];
}

/** Builds the presets once (app.ts) and registers the "presets.render" job's handler. */
export function buildPresets(deps: {
  db: Db;
  media: MediaTools;
  audit: AuditLog;
  blobs: BlobStore;
  jobs: Jobs;
  access: StoryAccess;
  storyDownloads: StoryDownloads;
  /** Embeds the story's metadata into renditions on their way out. */
  outgoing: Pick<OutgoingCopies, "file">;
  dataDir: string;
  timeoutMs: number;
  onBlobDeleteError?: (key: string, error: unknown) => void;
}): PresetsModule {
  const presets = new PresetsRepository(deps.db);
  const deleteBlobs = (keys: string[]) => {
    for (const key of keys) {
      deps.blobs.delete(key).catch((error: unknown) => deps.onBlobDeleteError?.(key, error));
    }
  };
  const watermarks = new WatermarksService({
    presets,
    media: deps.media,
    audit: deps.audit,
    onRenditionsDropped: deleteBlobs,
  });
  const stories = new StoryFiles(deps.access, deps.storyDownloads);
  const maker = new RenditionMaker({
    presets,
    stories,
    blobs: deps.blobs,
    media: deps.media,
    jobs: deps.jobs,
    watermarks,
    workDir: path.join(deps.dataDir, "tmp", "presets"),
    timeoutMs: deps.timeoutMs,
  });
  deps.jobs.register(maker.handler());
  const downloads = new DownloadPresetsService({
    presets,
    stories,
    maker,
    audit: deps.audit,
    deleteBlobs,
    watermarkExists: async (id) => (await presets.findWatermark(id)) !== undefined,
    outgoing: deps.outgoing,
    blobSize: async (key) => (await deps.blobs.stat(key))?.size,
    hiddenFor: async (user) => (await deps.storyDownloads.hiddenFor?.(user)) ?? new Set<string>(),
  });
  return {
    watermarks,
    downloads,
    routes: [watermarkPresetsRoutes(watermarks), downloadPresetsRoutes(downloads, deps.blobs)],
  };
}
