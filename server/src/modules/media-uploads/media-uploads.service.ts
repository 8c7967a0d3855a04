import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { API_PREFIX } from "../../http/error-handler.js";
import { Conflict, Invalid, type MessageParams, NotFound } from "../../http/errors.js";
import type { ImageFormat, MediaTools } from "../../media/index.js";
import { RefusedFileType, sniffBuffer } from "../../media/sniff.js";
import { newOriginalKey } from "../blobs/blob-keys.js";
import type { BlobStore } from "../blobs/blob-store.js";
import type { BlobsService } from "../blobs/blobs.service.js";
import type { FoldersService } from "../folders/folders.service.js";
import type { IngestService } from "../ingest/ingest.service.js";
import type { JobQueue } from "../jobs/job-queue.js";
import type { JobRecord } from "../jobs/jobs.repository.js";
import type { StoriesService } from "../stories/stories.service.js";
import type { StoryAccess } from "../stories/story-access.js";
import type { StoryQueries } from "../stories/story-queries.service.js";
import type { Actor, Story } from "../stories/story-types.js";
import { coverUrl, type StoryView } from "../stories/story-view.js";
import { decodeBase64Image } from "./base64-image.js";
import type { TRANSCODE_STATES } from "./media-uploads.schema.js";

/** What the transcode task reads of a job. */
type StoryJob = Pick<JobRecord, "id" | "state" | "progress" | "lastError">;

/** What the image editor and the cover cropper may save: the formats a canvas encodes. */
const EDITABLE_FORMATS: readonly ImageFormat[] = ["jpeg", "png", "webp"];
const EDITABLE_MIMES: Record<string, string> = { "image/jpeg": "jpg", "image/png": "png", "image/webp": "webp" };
/** Story types a cover can be set on: a photo is its own cover. */
const COVERED_TYPES = new Set(["video", "audio", "composite"]);

export interface MediaUploadsDependencies {
  stories: StoriesService;
  access: StoryAccess;
  queries: StoryQueries;
  folders: FoldersService;
  blobs: BlobStore;
  /** The registry of stored files (the blobs module's): covers are registered there. */
  blobRows: Pick<BlobsService, "register" | "find" | "forget">;
  /** The editor's saved image becomes a new version through the ingest command. */
  ingest: Pick<IngestService, "ingestFile">;
  /** A story's jobs (the jobs module's). */
  jobs: Pick<JobQueue, "ofStory">;
  /** Checks an image before it is stored (format, pixels, a full decode). */
  media: Pick<MediaTools, "checkImage">;
  /** Bounds what a stored cover read back may weigh (the JSON body limit). */
  maxImageBytes: number;
}

interface StoredImage {
  key: string;
  sha256: string;
  size: number;
  mime: string;
  extension: string;
  width: number;
  height: number;
}

export interface CoverResult {
  libraryId: string;
  storyId: string | null;
  coverKey: string;
  coverUrl: string | null;
  mime: string;
  width: number;
  height: number;
}

export interface TranscodeTask {
  libraryId: string;
  storyId: string;
  versionNo: number;
  type: string;
  jobId: string | null;
  state: (typeof TRANSCODE_STATES)[number];
  progress: number;
  error: string | null;
}

/** The image editor's save, the cover cropper, re-transcode and transcode progress (spec sections 4 and 7). */
export class MediaUploadsService {
  constructor(private readonly deps: MediaUploadsDependencies) {}

  /**
   * The image editor's save: the edited image becomes a new version of the
   * photo story (earlier versions and their files stay) and is processed again.
   */
  async saveEditedImage(
    actor: Actor,
    input: { base64String: string; libraryId: string; storyId: string },
  ): Promise<StoryView> {
    const story = await this.deps.access.forWrite(actor, input.libraryId, input.storyId);
    if (story.type !== "photo")
      throw new Invalid(`storyId: story ${story.id} is a ${story.type}, not a photo`, "wrong_type");
    const bytes = decodeBase64Image(input.base64String);
    const image = await this.#check(bytes);
    const base = (story.originalName ?? "edited").replace(/\.[A-Za-z0-9]{1,5}$/, "");
    // A new original: processed at once, whether the story is a draft or committed.
    await this.deps.ingest.ingestFile({
      source: { stream: Readable.from([bytes]), sha256: createHash("sha256").update(bytes).digest("hex") },
      originalName: `${base}.${image.extension}`,
      declaredType: "photo",
      userId: actor.id,
      ip: actor.ip,
      asNewVersionOf: { libraryId: story.libraryId, storyId: story.id, note: "edited in the image editor" },
    });
    return (await this.deps.queries.views([await this.deps.queries.require(story.libraryId, story.id)]))[0]!;
  }

  /**
   * The cover cropper's confirm. With a story: stored and set as its cover.
   * Without: stored and answered with a `coverKey` to attach later (`coverKey`
   * + `storyId` in this same call). An image whose ratio is not the crop box's
   * (beyond a pixel of rounding) is refused.
   */
  async saveCover(
    actor: Actor,
    input: {
      base64String?: string;
      coverKey?: string;
      ratio?: { width: number; height: number };
      libraryId: string;
      folderId?: string;
      storyId?: string;
    },
  ): Promise<CoverResult> {
    await this.deps.access.libraryForWrite(actor, input.libraryId);
    if (input.folderId) await this.deps.folders.require(input.libraryId, input.folderId);
    const story = input.storyId ? await this.deps.access.forWrite(actor, input.libraryId, input.storyId) : undefined;
    if (story && !COVERED_TYPES.has(story.type)) {
      throw new Invalid(`storyId: story ${story.id} is a ${story.type}; a photo is its own cover`, "wrong_type");
    }
    const image =
      input.base64String !== undefined
        ? await this.#storeCover(actor, decodeBase64Image(input.base64String), input.ratio!)
        : await this.#ownCover(actor, input.coverKey!, input.ratio);
    const result = {
      libraryId: input.libraryId,
      coverKey: image.key,
      mime: image.mime,
      width: image.width,
      height: image.height,
    };
    if (!story) return { ...result, storyId: null, coverUrl: null };
    try {
      const { deletedBlobKey } = await this.deps.stories.setCoverImage(actor, story.libraryId, story.id, {
        blobKey: image.key,
        mime: image.mime,
        size: image.size,
        width: image.width,
        height: image.height,
      });
      if (deletedBlobKey) await this.deps.blobRows.forget([deletedBlobKey]);
    } catch (error) {
      if (input.base64String !== undefined) await this.#forget(image.key);
      throw error;
    }
    return { ...result, storyId: story.id, coverUrl: coverUrl(story, image.key) };
  }

  /** Media processing of the story's current version again; 409 while a job for it is queued or running. */
  async reTranscode(actor: Actor, input: { libraryId: string; storyId: string }): Promise<TranscodeTask> {
    const story = await this.deps.access.forWrite(actor, input.libraryId, input.storyId);
    const [active] = await this.deps.jobs.ofStory(story.id, {
      name: "stories.process",
      states: ["queued", "running"],
      limit: 1,
    });
    if (active) {
      throw new Conflict(
        `media processing of story ${story.id} is already ${active.state} (job ${active.id}): wait for it to end`,
        "processing_active",
      );
    }
    // The dedupe key closes the race between the check above and the enqueue: two calls queue one job.
    const { story: queued, jobId } = await this.deps.stories.requestProcessing(actor, story.libraryId, story.id, {
      reason: "re-transcode",
      dedupeKey: `reprocess:${story.id}`,
    });
    return this.#task(queued, { id: jobId, state: "queued", progress: 0, lastError: null });
  }

  /** Progress of the media processing of a story's current version (the video editor polls it until 100). */
  async transcodeTask(actor: Actor, input: { videoUrl: string; type?: string }): Promise<TranscodeTask> {
    const target = parseVideoUrl(input.videoUrl);
    const story = await this.deps.access.forRead(actor, target.libraryId, target.storyId);
    const type = input.type?.toLowerCase();
    if (type && ["photo", "video", "audio", "composite"].includes(type) && story.type !== type) {
      throw new Invalid(`type: story ${story.id} is a ${story.type}, not a ${type}`, "wrong_type");
    }
    const version = await this.deps.queries.version(story.libraryId, story.id, story.versionNo);
    const [job] = await this.deps.jobs.ofStory(story.id, {
      name: "stories.process",
      since: version.createdAt,
      limit: 1,
    });
    return this.#task(story, job);
  }

  #task(story: Story, job: StoryJob | undefined): TranscodeTask {
    const base = {
      libraryId: story.libraryId,
      storyId: story.id,
      versionNo: story.versionNo,
      type: story.type,
      jobId: job?.id ?? null,
    };
    return { ...base, ...progressOf(story, job) };
  }

  async #storeCover(actor: Actor, bytes: Buffer, ratio: { width: number; height: number }): Promise<StoredImage> {
    const image = await this.#storeImage(bytes, ratio);
    try {
      await this.deps.blobRows.register(this.#blobRow(actor, image, "cover"));
    } catch (error) {
      await this.deps.blobs.delete(image.key).catch(() => undefined);
      throw error;
    }
    return image;
  }

  /** A cover stored earlier by this user (a `blobs` row they created), checked again by content. */
  async #ownCover(actor: Actor, key: string, ratio?: { width: number; height: number }): Promise<StoredImage> {
    const row = await this.deps.blobRows.find(key);
    if (!row || row.created_by !== actor.id) throw new NotFound("coverKey: no cover of yours has this key");
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of await this.deps.blobs.get(key)) {
      size += (chunk as Buffer).length;
      if (size > this.deps.maxImageBytes) throw new Invalid("coverKey: the stored file is too large for a cover");
      chunks.push(chunk as Buffer);
    }
    const checked = await this.#check(Buffer.concat(chunks), ratio);
    return { key, sha256: row.sha256, size: Number(row.size), ...checked };
  }

  /** Sniffs and checks the image, then writes it under a new key (no row yet). */
  async #storeImage(bytes: Buffer, ratio?: { width: number; height: number }): Promise<StoredImage> {
    const checked = await this.#check(bytes, ratio);
    const key = newOriginalKey();
    await this.deps.blobs.put(key, Readable.from(bytes), { contentType: checked.mime });
    return { key, sha256: createHash("sha256").update(bytes).digest("hex"), size: bytes.length, ...checked };
  }

  async #check(bytes: Buffer, ratio?: { width: number; height: number }) {
    let mime: string;
    try {
      mime = (await sniffBuffer(bytes)).mime;
    } catch (error) {
      if (!(error instanceof RefusedFileType)) throw error;
      const what = /^This file is (.*?), which/.exec(error.message)?.[1] ?? "not an image";
      // The sniffer's own message names what the file is (its code and values); here only images may be.
      throw new RefusedFileType(
        `base64String: this file is ${what}; only JPEG, PNG and WebP images are accepted`,
        error.detected,
      ).withMessageCode(
        `image.${(error.msgCode ?? "file.unrecognised").replace(/^file\./, "")}`,
        refusedContent(error.msgParams),
      );
    }
    const extension = EDITABLE_MIMES[mime];
    if (!extension) {
      const type = (mime.split("/")[1] ?? mime).toUpperCase();
      throw new RefusedFileType(
        `base64String: this file is ${mime}; only JPEG, PNG and WebP images are accepted`,
        mime.split("/")[1] ?? mime,
      ).withMessageCode("image.refusedType", { type, mime });
    }
    const { width, height } = await this.deps.media.checkImage(bytes, EDITABLE_FORMATS);
    if (ratio && !matchesRatio(width, height, ratio)) {
      throw new Invalid(
        `ratio: the image is ${width}x${height}, not ${ratio.width}:${ratio.height} (the crop box's ratio)`,
        "wrong_ratio",
      );
    }
    return { mime, extension, width, height };
  }

  #blobRow(actor: Actor, image: StoredImage, name: string) {
    return {
      key: image.key,
      sha256: image.sha256,
      size: image.size,
      mime: image.mime,
      kind: "photo" as const,
      original_name: `${name}.${image.extension}`,
      created_by: actor.id,
      created_at: new Date().toISOString(),
    };
  }

  async #forget(key: string): Promise<void> {
    await this.deps.blobRows.forget([key]).catch(() => undefined);
    await this.deps.blobs.delete(key).catch(() => undefined);
  }
}

/** Whether `width`x`height` has the ratio, allowing a pixel of rounding on either side. */
export function matchesRatio(width: number, height: number, ratio: { width: number; height: number }): boolean {
  const expectedHeight = (width * ratio.height) / ratio.width;
  const expectedWidth = (height * ratio.width) / ratio.height;
  return Math.abs(height - expectedHeight) <= 1 || Math.abs(width - expectedWidth) <= 1;
}

const STORY_PATH =
  /(?:^|\/)([A-Za-z0-9][A-Za-z0-9._-]{0,199})\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/**
 * The story a video URL names: a download URL of ours (stories/download,
 * workflow-story-download), the story's own URL, or `libraryId/storyId`.
 */
export function parseVideoUrl(videoUrl: string): { libraryId: string; storyId: string } {
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(videoUrl.trim(), "http://dams.invalid/").pathname);
  } catch {
    throw new Invalid("videoUrl: not a URL");
  }
  if (pathname.startsWith(API_PREFIX)) pathname = pathname.slice(API_PREFIX.length);
  const match = STORY_PATH.exec(pathname.replace(/\/+$/, ""));
  if (!match) throw new Invalid("videoUrl: must name a story (…/{libraryId}/{storyId})", "invalid_video_url");
  return { libraryId: match[1]!, storyId: match[2]!.toLowerCase() };
}

/** What the sniffer found the file to be (its content or type), without its list of accepted uploads. */
function refusedContent(params: MessageParams | undefined): MessageParams {
  const { content, type, mime } = params ?? {};
  return Object.fromEntries(
    Object.entries({ content, type, mime }).filter(([, value]) => value !== undefined),
  ) as MessageParams;
}

function progressOf(story: Story, job: StoryJob | undefined): Pick<TranscodeTask, "state" | "progress" | "error"> {
  if (!job) {
    // No job for this version: what the story knows (a draft not yet committed, or a job already purged).
    switch (story.processingState) {
      case "done":
        return { state: "done", progress: 100, error: null };
      case "failed":
        return { state: "failed", progress: 0, error: story.processingError };
      case "none":
        return { state: "none", progress: 0, error: null };
      case "queued":
      case "running":
        return { state: "queued", progress: 0, error: null };
    }
  }
  switch (job.state) {
    case "succeeded":
      return { state: "done", progress: 100, error: null };
    case "running":
      // One job may process several stories (a commit): this one may be done already, or still waiting its turn.
      if (story.processingState === "done") return { state: "done", progress: 100, error: null };
      if (story.processingState === "queued") return { state: "queued", progress: 0, error: job.lastError };
      return { state: "running", progress: Math.min(job.progress, 99), error: job.lastError };
    case "queued":
      return { state: "queued", progress: 0, error: job.lastError };
    case "dead":
      return { state: "failed", progress: Math.min(job.progress, 99), error: job.lastError ?? story.processingError };
    case "cancelled":
      return { state: "cancelled", progress: Math.min(job.progress, 99), error: job.lastError };
  }
}
