import type { Readable } from "node:stream";
import { AppError, NotFound } from "../../http/errors.js";
import type { BlobStore, ByteRange } from "../blobs/blob-store.js";
import type { StoriesRepository } from "./stories.repository.js";
import type { StoryActionsRepository } from "./story-actions.repository.js";
import type { Actor } from "./story-types.js";

export interface DownloadRequest {
  libraryId: string;
  storyId: string;
  /** `original` (default), a rendition role (thumbnail, preview, proxy, poster…) or `cover`. */
  rendition?: string;
  /** Default: the current version. */
  versionNo?: number;
}

export interface ResolvedDownload {
  blobKey: string;
  fileName: string;
  contentType: string;
  size: number;
}

const EXTENSIONS: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "image/gif": "gif",
  "image/tiff": "tif",
  "image/heic": "heic",
  "video/mp4": "mp4",
  "video/quicktime": "mov",
  "audio/mpeg": "mp3",
  "audio/mp4": "m4a",
  "audio/aac": "aac",
  "audio/wav": "wav",
  "application/json": "json",
};

/** Finds the blob behind a download and records it as a story action. */
export class StoryDownloads {
  constructor(
    private readonly stories: StoriesRepository,
    private readonly actions: StoryActionsRepository,
    private readonly blobs: BlobStore,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async resolve(request: DownloadRequest): Promise<ResolvedDownload> {
    const story = await this.stories.find(request.storyId);
    if (!story || story.libraryId !== request.libraryId) {
      throw new NotFound(`story ${request.storyId} is not in library ${request.libraryId}`);
    }
    const role = request.rendition ?? "original";
    const versionNo = request.versionNo ?? story.versionNo;
    const baseName = (story.title || story.originalName || story.id).replace(/\.[A-Za-z0-9]{1,5}$/, "");
    if (role === "cover") {
      if (!story.coverKey) throw new NotFound("rendition: the story has no cover");
      const stat = await this.blobs.stat(story.coverKey);
      if (!stat) throw new NotFound("rendition: the cover's file is missing");
      const file = await this.stories.fileByBlobKey(story.coverKey);
      const contentType = file?.mime ?? "image/jpeg";
      return {
        blobKey: story.coverKey,
        fileName: `${baseName}-cover.${EXTENSIONS[contentType] ?? "bin"}`,
        contentType,
        size: stat.size,
      };
    }
    const file = (await this.stories.files([story.id], versionNo)).find((candidate) => candidate.role === role);
    if (!file) throw new NotFound(`rendition: version ${versionNo} of story ${story.id} has no ${role} file`);
    const version = (await this.stories.versions(story.id)).find((candidate) => candidate.versionNo === versionNo);
    const fileName =
      role === "original" && version?.originalName
        ? version.originalName
        : `${baseName}${role === "original" ? "" : `-${role}`}.${EXTENSIONS[file.mime] ?? "bin"}`;
    return { blobKey: file.blobKey, fileName, contentType: file.mime, size: file.size };
  }

  async open(key: string, range?: ByteRange): Promise<Readable> {
    return this.blobs.get(key, range);
  }

  async record(actor: Actor, request: DownloadRequest, resolved: ResolvedDownload): Promise<void> {
    await this.actions.record(
      {
        libraryId: request.libraryId,
        storyId: request.storyId,
        userId: actor.id,
        username: actor.username,
        action: "download",
        ip: actor.ip,
        details: {
          rendition: request.rendition ?? "original",
          versionNo: request.versionNo ?? null,
          fileName: resolved.fileName,
        },
      },
      this.clock().toISOString(),
    );
  }
}

/** RFC 6266 attachment (or inline) with an ASCII fallback and the UTF-8 name. */
export function contentDisposition(kind: "attachment" | "inline", fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

export class RangeNotSatisfiable extends AppError {
  constructor(readonly size: number) {
    super(416, "range_not_satisfiable", `the requested range is outside the file's ${size} bytes`);
  }
}

/**
 * The one byte range of a `Range: bytes=…` header (RFC 9110), or undefined
 * for the whole file (no header, another unit, several ranges).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return undefined;
  let start: number;
  let end: number;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0) throw new RangeNotSatisfiable(size);
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) throw new RangeNotSatisfiable(size);
  return { start, end };
}
