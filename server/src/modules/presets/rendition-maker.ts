import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { NotFound } from "../../http/errors.js";
import { MediaError, type MediaTools, type RenditionSpec } from "../../media/index.js";
import type { BlobStore } from "../blobs/blob-store.js";
import {
  type JobEnqueuer,
  type JobHandler,
  type JobResult,
  jobFailed,
  jobSkipped,
  jobSucceeded,
} from "../jobs/job-types.js";
import type { RenditionSettings } from "./download-presets.schema.js";
import type { PresetsRepository, RenditionRow } from "./presets.repository.js";
import type { StoryFiles } from "./story-files.js";
import type { WatermarksService } from "./watermarks.service.js";

const EXTENSIONS: Record<RenditionSettings["format"], string> = {
  jpeg: "jpg",
  webp: "webp",
  png: "png",
  avif: "avif",
  mp4: "mp4",
  aac: "m4a",
  mp3: "mp3",
};

export interface RenditionMakerDependencies {
  presets: PresetsRepository;
  stories: StoryFiles;
  blobs: BlobStore;
  media: MediaTools;
  jobs: JobEnqueuer;
  watermarks: WatermarksService;
  /** Where renditions are written before they go to the blob store. */
  workDir: string;
  timeoutMs: number;
}

/**
 * Makes a preset's rendition of a story version: the original from the blob
 * store, the media tools, the result stored under
 * `presets/<preset>/<story>/v<n>-r<revision>-….<ext>`. Run by the
 * "presets.render" job; a rendition whose preset changed meanwhile is skipped.
 */
export class RenditionMaker {
  constructor(private readonly deps: RenditionMakerDependencies) {}

  async enqueue(row: RenditionRow, transaction: Kysely<Database>): Promise<void> {
    await this.deps.jobs.enqueue(
      "presets.render",
      { renditionId: row.id },
      { transaction, storyId: row.story_id, dedupeKey: row.id },
    );
  }

  handler(): JobHandler<"presets.render"> {
    return {
      name: "presets.render",
      maxAttempts: 3,
      timeoutMs: this.deps.timeoutMs,
      run: (payload, context) => this.make(payload.renditionId, context.signal),
    };
  }

  async make(renditionId: string, signal?: AbortSignal): Promise<JobResult> {
    const { presets } = this.deps;
    const row = await presets.findRendition(renditionId);
    if (!row) return jobSkipped("the rendition is gone (its preset was edited or deleted)");
    if (row.state === "done") return jobSucceeded;
    const preset = await presets.findDownload(row.preset_id);
    if (!preset || preset.revision !== row.revision) return jobSkipped("the preset changed since it was asked for");
    const now = () => new Date().toISOString();
    await presets.updateRendition(row.id, row.revision, { state: "running", error: null, updated_at: now() });
    const dir = await fs.mkdtemp(path.join(await this.#workDir(), "rendition-"));
    try {
      const original = await this.deps.stories.original(row.library_id, row.story_id, row.version_no);
      const settings = preset.settings as RenditionSettings;
      const watermark = preset.watermark_preset_id
        ? ((await this.deps.watermarks.spec(preset.watermark_preset_id))?.spec ?? null)
        : null;
      const spec: RenditionSpec = { ...settings, watermark };
      const out = path.join(dir, `rendition.${EXTENSIONS[settings.format]}`);
      const made = await this.deps.blobs.withLocalFile(original.blobKey, (file) =>
        this.deps.media.presetRendition(file, out, spec, { signal }),
      );
      const key = `presets/${preset.id}/${row.story_id}/v${row.version_no}-r${row.revision}-${randomUUID().slice(0, 8)}.${EXTENSIONS[settings.format]}`;
      const stored = await this.deps.blobs.putFile(key, out, { contentType: made.mime });
      const saved = await presets.updateRendition(row.id, row.revision, {
        state: "done",
        blob_key: key,
        mime: made.mime,
        size: stored.size,
        width: made.width,
        height: made.height,
        error: null,
        updated_at: now(),
      });
      if (!saved) {
        await this.deps.blobs.delete(key);
        return jobSkipped("the preset changed while the rendition was made");
      }
      return jobSucceeded;
    } catch (error) {
      if (error instanceof MediaError || error instanceof NotFound) {
        const reason = error instanceof MediaError ? error.reason : error.message;
        const retry = error instanceof MediaError && error.retryable;
        await presets.updateRendition(row.id, row.revision, {
          state: retry ? "queued" : "failed",
          error: reason,
          updated_at: now(),
        });
        return jobFailed(reason, { retry });
      }
      await presets.updateRendition(row.id, row.revision, { state: "queued", updated_at: now() });
      throw error;
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }

  async #workDir(): Promise<string> {
    await fs.mkdir(this.deps.workDir, { recursive: true });
    return this.deps.workDir;
  }
}
