import { randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { type ImageMetadata, MediaError, type MediaProbe, type MediaTools } from "../../media/index.js";
import type { BlobStore } from "../blobs/blob-store.js";
import { type JobContext, type JobResult, jobFailed, jobSkipped, jobSucceeded } from "../jobs/job-types.js";
import type { StoriesService } from "../stories/stories.service.js";
import type { ExtractedMetadata } from "../stories/story-metadata.js";
import type { Story, StoryFile } from "../stories/story-types.js";

/** The part of the stories service the media jobs write through. */
export type ProcessingStories = Pick<
  StoriesService,
  "processingSource" | "addRendition" | "applyExtractedMetadata" | "setProcessingState"
>;

export interface StoryMediaDependencies {
  stories: ProcessingStories;
  blobs: BlobStore;
  /** The media tools (SystemMediaTools; a fake in the tests of these rules). */
  media: MediaTools;
  /** Scratch space for renditions before they go into the blob store (under the data dir: videos are large). */
  workDir: string;
  onBlobDeleteError?: (key: string, error: unknown) => void;
}

/** A file a job produced, and the role it plays for the story's version. */
interface Output {
  role: string;
  file: string;
  mime: string;
  extension: string;
  width?: number | null;
  height?: number | null;
}

const nonEmpty = <T extends Record<string, unknown>>(record: T): Partial<T> =>
  Object.fromEntries(
    Object.entries(record).filter(([, value]) => value !== null && value !== undefined && value !== ""),
  ) as Partial<T>;

/** Story fields from a photo's EXIF/IPTC/XMP; the story keeps what people already typed (applyExtractedMetadata). */
export function photoFields(metadata: ImageMetadata, hash: string): ExtractedMetadata {
  return nonEmpty({
    title: metadata.title ?? metadata.headline ?? undefined,
    caption: metadata.caption ?? undefined,
    keywords: metadata.keywords.length > 0 ? metadata.keywords : undefined,
    authors: metadata.creator ? [metadata.creator] : undefined,
    source: metadata.source ?? metadata.credit ?? undefined,
    capturedAt: metadata.capturedAt ?? undefined,
    gps: metadata.gps
      ? {
          latitude: metadata.gps.latitude,
          longitude: metadata.gps.longitude,
          ...(metadata.gps.altitude === null ? {} : { altitude: metadata.gps.altitude }),
        }
      : undefined,
    width: metadata.width ?? undefined,
    height: metadata.height ?? undefined,
    perceptualHash: hash,
    properties: nonEmpty({
      cameraMake: metadata.cameraMake,
      cameraModel: metadata.cameraModel,
      lens: metadata.lens,
      credit: metadata.credit,
      // The notice as text: the seeded `copyright` property is a rights code list (docs/stories.md).
      copyrightNotice: metadata.copyright,
      city: metadata.city,
      country: metadata.country,
    }),
  }) as ExtractedMetadata;
}

function mediaFields(probe: MediaProbe): ExtractedMetadata {
  return nonEmpty({
    duration: probe.durationSeconds,
    width: probe.width ?? undefined,
    height: probe.height ?? undefined,
    properties: nonEmpty({
      container: probe.container,
      videoCodec: probe.videoCodec,
      audioCodec: probe.audioCodec,
      frameRate: probe.frameRate,
      rotation: probe.rotation || null,
      bitRate: probe.bitRate,
      audioChannels: probe.audioChannels,
      audioSampleRate: probe.audioSampleRate,
    }),
  }) as ExtractedMetadata;
}

/**
 * Renditions and extracted metadata of one story's current version: for
 * photos the grid thumbnail and the preview (JPEG and WebP), metadata and the
 * perceptual hash; for videos the poster, a thumbnail, the web proxy and the
 * scrubbing strip; for audio the web proxy and the waveform peaks. Idempotent:
 * rendition keys are fixed per story, version and role, so a rerun after a
 * crash overwrites what the first run left.
 */
export class StoryMediaProcessor {
  constructor(private readonly deps: StoryMediaDependencies) {}

  /**
   * Skipped when the story is gone (deleted meanwhile) or has no file; failed
   * with the reason, which the story shows too, for good when the same bytes
   * will fail the same way (a MediaError that is not retryable).
   */
  async process(storyId: string, context: Pick<JobContext, "signal" | "progress">): Promise<JobResult> {
    const source = await this.deps.stories.processingSource(storyId);
    if (!source) return jobSkipped(`story ${storyId} is gone or has no file to process`);
    const { story, original } = source;
    await this.deps.stories.setProcessingState(story.id, "running");
    const scratch = path.join(this.deps.workDir, randomUUID());
    await fs.mkdir(scratch, { recursive: true });
    try {
      await this.deps.blobs.withLocalFile(original.blobKey, async (file) => {
        const outputs = await this.render(story, original.versionNo, file, scratch, context);
        for (const output of outputs) await this.store(story, original, output);
      });
      await this.deps.stories.setProcessingState(story.id, "done");
      await context.progress(100);
      return jobSucceeded;
    } catch (error) {
      const reason =
        error instanceof MediaError ? error.reason : error instanceof Error ? error.message : String(error);
      await this.deps.stories.setProcessingState(story.id, "failed", reason);
      return jobFailed(reason, { retry: !(error instanceof MediaError) || error.retryable });
    } finally {
      await fs.rm(scratch, { recursive: true, force: true });
    }
  }

  private async render(
    story: Story,
    /** The version `file` is the original of: the extracted metadata describes it. */
    versionNo: number,
    file: string,
    scratch: string,
    context: Pick<JobContext, "signal" | "progress">,
  ): Promise<Output[]> {
    const { media } = this.deps;
    const { signal } = context;
    switch (story.type) {
      case "photo": {
        const derivatives = await media.imageDerivatives(file, scratch);
        await context.progress(50);
        const metadata = await media.imageMetadata(file, { signal });
        await this.deps.stories.applyExtractedMetadata(
          story.id,
          {
            ...photoFields(metadata, derivatives.perceptualHash),
            width: derivatives.width,
            height: derivatives.height,
          },
          versionNo,
        );
        await context.progress(80);
        return derivatives.renditions.map((rendition) => ({
          role: rendition.format === "jpeg" ? rendition.kind : `${rendition.kind}-webp`,
          file: rendition.path,
          mime: rendition.format === "jpeg" ? "image/jpeg" : "image/webp",
          extension: rendition.format === "jpeg" ? "jpg" : "webp",
          width: rendition.width,
          height: rendition.height,
        }));
      }
      case "video": {
        const probe = await media.probe(file, { signal });
        await this.deps.stories.applyExtractedMetadata(story.id, mediaFields(probe), versionNo);
        const poster = await media.poster(file, path.join(scratch, "poster.jpg"), { signal, probe });
        const thumbnail = await media.thumbnail(poster.path, path.join(scratch, "thumbnail.jpg"));
        const strip = await media.thumbnailStrip(file, path.join(scratch, "strip"), { signal, probe });
        await context.progress(10);
        const proxy = await media.videoProxy(file, path.join(scratch, "proxy.mp4"), {
          signal,
          probe,
          onProgress: (percent) => void context.progress(10 + Math.floor(percent * 0.85)),
        });
        return [
          { role: "poster", file: poster.path, mime: "image/jpeg", extension: "jpg", ...poster },
          { role: "thumbnail", file: thumbnail.path, mime: "image/jpeg", extension: "jpg", ...thumbnail },
          { role: "strip", file: strip.spriteFile, mime: "image/jpeg", extension: "jpg" },
          { role: "strip-index", file: strip.indexFile, mime: "application/json", extension: "json" },
          { role: "proxy", file: proxy.path, mime: "video/mp4", extension: "mp4", ...proxy },
        ];
      }
      case "audio": {
        const probe = await media.probe(file, { signal });
        await this.deps.stories.applyExtractedMetadata(story.id, mediaFields(probe), versionNo);
        const waveform = await media.audioWaveform(file, { signal, probe });
        const waveformFile = path.join(scratch, "waveform.json");
        await fs.writeFile(waveformFile, JSON.stringify(waveform));
        await context.progress(10);
        const proxy = await media.audioProxy(file, path.join(scratch, "proxy.m4a"), {
          signal,
          probe,
          onProgress: (percent) => void context.progress(10 + Math.floor(percent * 0.85)),
        });
        return [
          { role: "waveform", file: waveformFile, mime: "application/json", extension: "json" },
          { role: "proxy", file: proxy.path, mime: "audio/mp4", extension: "m4a" },
        ];
      }
      case "composite":
        return [];
    }
  }

  private async store(story: Story, original: StoryFile, output: Output): Promise<void> {
    const key = `renditions/${story.id}/v${original.versionNo}/${output.role}.${output.extension}`;
    const stored = await this.deps.blobs.put(key, createReadStream(output.file), { contentType: output.mime });
    const { replacedBlobKey } = await this.deps.stories.addRendition({
      storyId: story.id,
      versionNo: original.versionNo,
      role: output.role,
      blobKey: key,
      mime: output.mime,
      size: stored.size,
      width: output.width ?? null,
      height: output.height ?? null,
    });
    if (replacedBlobKey && replacedBlobKey !== key) {
      await this.deps.blobs
        .delete(replacedBlobKey)
        .catch((error) => this.deps.onBlobDeleteError?.(replacedBlobKey, error));
    }
  }
}
