/**
 * The render job: reloads the render, fetches the originals of its stories
 * (at the pinned versions) to local files, renders the EDL and stores the MP4
 * (and the poster frame) as blobs with their registry rows, together with the
 * render's row. Nothing is stored before ffmpeg has finished; a cancel kills
 * ffmpeg, the work directory goes, and the render has no file.
 * Idempotent: a render that has its file is not rendered again.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { AppError, NotFound } from "../../http/errors.js";
import { MediaError, RENDER_FONT, type VideoRenderTools } from "../../media/index.js";
import { newOriginalKey } from "../blobs/blob-keys.js";
import type { BlobStore } from "../blobs/blob-store.js";
import type { BlobRow } from "../blobs/blobs.repository.js";
import type { Story } from "../stories/story-types.js";
import { type Edl, edlSchema, edlSources } from "./edl.schema.js";
import { type LocalSource, renderEdlFile } from "./render-runner.js";
import type { RenderRow, VideoEditRepository } from "./video-edit.repository.js";

export interface RenderJobDependencies {
  repository: VideoEditRepository;
  stories: { require(libraryId: string, storyId: string): Promise<Story> };
  /** The blob key of a story's original at a version (the stories' download resolver). */
  original(request: { libraryId: string; storyId: string; versionNo: number }): Promise<{ blobKey: string }>;
  blobs: BlobStore;
  media: VideoRenderTools;
  insertBlobRow(row: BlobRow, transaction: Kysely<Database>): Promise<void>;
  transaction<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T>;
  /** The image of a watermark preset (an image logo drawn from the watermark presets). */
  watermarkImage?(presetId: string): Promise<{ bytes: Buffer; type: string }>;
  /** Scratch space for the sources' copies and the render (under the data dir: videos are large). */
  workDir: string;
  clock?: () => Date;
}

export type RenderOutcome =
  | { outcome: "rendered" }
  | { outcome: "skipped"; reason: string }
  | { outcome: "failed"; reason: string; retry: boolean };

async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest("hex");
}

/** Runs `work` with local copies of every blob (nested: each store may hand out a temporary file). */
function withLocalFiles<T>(blobs: BlobStore, keys: string[], work: (files: string[]) => Promise<T>): Promise<T> {
  if (keys.length === 0) return work([]);
  return blobs.withLocalFile(keys[0]!, (first) =>
    withLocalFiles(blobs, keys.slice(1), (rest) => work([first, ...rest])),
  );
}

/** The sources of a render as stories with their originals' keys; a failure naming the story that went. */
async function sourcesOf(deps: RenderJobDependencies, row: RenderRow) {
  const edl = edlSchema.parse(row.edl);
  const sources: { local: Omit<LocalSource, "path">; blobKey: string }[] = [];
  for (const ref of edlSources(edl)) {
    const story = await deps.stories.require(ref.libraryId, ref.storyId).catch((error: unknown) => {
      if (error instanceof NotFound) return undefined;
      throw error;
    });
    if (!story || story.type === "composite")
      return { failure: `the story ${ref.libraryId}/${ref.storyId} is no longer there` };
    const { blobKey } = await deps.original({ ...ref, versionNo: ref.versionNo ?? story.versionNo });
    sources.push({ local: { ref, type: story.type }, blobKey });
  }
  return { edl, sources };
}

/** The reference a watermark preset's image takes among the sources (never a library's id). */
export const PRESET_LOGO_LIBRARY = "~watermark-preset";

/**
 * An image logo drawn from a watermark preset: its image written to the work
 * directory as one more (photo) source, and the EDL's logo pointed at it.
 */
async function presetLogo(
  deps: RenderJobDependencies,
  edl: Edl,
  workDir: string,
): Promise<{ edl: Edl; local: LocalSource } | { failure: string } | null> {
  const logo = edl.logo;
  if (logo?.type !== 1 || logo.source || !logo.presetId) return null;
  const image = await deps.watermarkImage?.(logo.presetId).catch(() => null);
  if (!image) return { failure: `the watermark preset ${logo.presetId} has no image (any more)` };
  const file = path.join(workDir, `logo-preset.${image.type === "image/png" ? "png" : "jpg"}`);
  fs.writeFileSync(file, image.bytes);
  const ref = { libraryId: PRESET_LOGO_LIBRARY, storyId: logo.presetId };
  return { edl: { ...edl, logo: { ...logo, source: ref } }, local: { ref, type: "photo", path: file } };
}

export async function runRender(
  deps: RenderJobDependencies,
  renderId: string,
  context: { signal: AbortSignal; progress: (percent: number) => Promise<void> | void },
): Promise<RenderOutcome> {
  const row = await deps.repository.findRender(renderId);
  if (!row) return { outcome: "skipped", reason: `render ${renderId} was deleted` };
  if (row.output_key) return { outcome: "skipped", reason: `render ${renderId} has its file already` };
  const resolved = await sourcesOf(deps, row);
  if ("failure" in resolved) return { outcome: "failed", reason: resolved.failure!, retry: false };
  fs.mkdirSync(deps.workDir, { recursive: true });
  const workDir = fs.mkdtempSync(path.join(deps.workDir, `${renderId}-`));
  const stored: string[] = [];
  try {
    const keys = resolved.sources.map((source) => source.blobKey);
    const out = path.join(workDir, "render.mp4");
    const preset = await presetLogo(deps, resolved.edl, workDir);
    if (preset && "failure" in preset) return { outcome: "failed", reason: preset.failure, retry: false };
    const rendered = await withLocalFiles(deps.blobs, keys, (files) => {
      const locals = resolved.sources.map((source, index) => ({ ...source.local, path: files[index]! }));
      if (preset) locals.push(preset.local);
      return renderEdlFile(preset?.edl ?? resolved.edl, locals, out, {
        workDir,
        media: deps.media,
        font: RENDER_FONT,
        signal: context.signal,
        onProgress: (percent) => void context.progress(Math.min(99, percent)),
      });
    });
    context.signal.throwIfAborted();
    const sha256 = await sha256Of(out);
    const outputKey = newOriginalKey();
    await deps.blobs.putFile(outputKey, out, { contentType: "video/mp4" });
    stored.push(outputKey);
    let poster: { key: string; sha256: string; size: number } | null = null;
    if (rendered.posterPath) {
      const posterSha = await sha256Of(rendered.posterPath);
      const posterKey = newOriginalKey();
      const { size } = await deps.blobs.putFile(posterKey, rendered.posterPath, { contentType: "image/jpeg" });
      stored.push(posterKey);
      poster = { key: posterKey, sha256: posterSha, size };
    }
    const now = (deps.clock?.() ?? new Date()).toISOString();
    const title = edlSchema.parse(row.edl).title.trim() || "video";
    await deps.transaction(async (trx) => {
      const blobRow = { created_by: row.user_id, created_at: now };
      await deps.insertBlobRow(
        {
          ...blobRow,
          key: outputKey,
          sha256,
          size: rendered.sizeBytes,
          mime: "video/mp4",
          kind: "video",
          original_name: `${title}.mp4`,
        },
        trx,
      );
      if (poster)
        await deps.insertBlobRow(
          { ...blobRow, ...poster, mime: "image/jpeg", kind: "photo", original_name: `${title}-poster.jpg` },
          trx,
        );
      await deps.repository.updateRender(
        renderId,
        {
          output_key: outputKey,
          poster_key: poster?.key ?? null,
          method: rendered.method,
          reason: rendered.reason,
          duration: rendered.durationSeconds,
          width: rendered.width,
          height: rendered.height,
          size: rendered.sizeBytes,
          finished_at: now,
        },
        trx,
      );
    });
    stored.length = 0;
    return { outcome: "rendered" };
  } catch (error) {
    if (context.signal.aborted) throw error;
    if (error instanceof MediaError) return { outcome: "failed", reason: error.reason, retry: error.retryable };
    // An EDL its sources cannot satisfy (a clip past the end of a new version's file…) will not pass on retry.
    if (error instanceof AppError && error.status < 500)
      return { outcome: "failed", reason: error.message, retry: false };
    throw error;
  } finally {
    await Promise.all(stored.map((key) => deps.blobs.delete(key).catch(() => undefined)));
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}
