import { NotFound } from "../../http/errors.js";
import type { BlobStore } from "../blobs/blob-store.js";
import type { StoriesRepository } from "./stories.repository.js";
import type { StoryActionsRepository } from "./story-actions.repository.js";
import type { Actor, Story } from "./story-types.js";

export interface DownloadRequest {
  libraryId: string;
  storyId: string;
  /** `original` (default), a rendition role (thumbnail, preview, proxy, poster…) or `cover`. */
  rendition?: string;
  /** Default: the current version. */
  versionNo?: number;
}

/** The blob behind a download and how to present it. */
export interface ResolvedDownload {
  blobKey: string;
  fileName: string;
  contentType: string;
}

/** Extensions of the types the server stores (uploads as sniffed, renditions as the media jobs write them). */
const EXTENSIONS: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "image/gif": "gif",
  "image/tiff": "tif",
  "image/heic": "heic",
  "image/heif": "heif",
  "image/avif": "avif",
  "image/bmp": "bmp",
  "video/mp4": "mp4",
  "video/quicktime": "mov",
  "video/x-m4v": "m4v",
  "video/webm": "webm",
  "video/matroska": "mkv",
  "video/vnd.avi": "avi",
  "video/mp2t": "ts",
  "video/3gpp": "3gp",
  "video/3gpp2": "3g2",
  "application/mxf": "mxf",
  "audio/mpeg": "mp3",
  "audio/mp4": "m4a",
  "audio/x-m4a": "m4a",
  "audio/aac": "aac",
  "audio/wav": "wav",
  "audio/flac": "flac",
  "audio/ogg": "ogg",
  "application/json": "json",
};

/** Bytes a file name's stem may take in UTF-8 (file systems stop at 255 for the whole name). */
const MAX_STEM_BYTES = 200;

/**
 * A title as a file name's stem: whitespace as one space; no path separators,
 * reserved or control characters; no leading or trailing dots; bounded.
 */
export function fileStem(title: string): string {
  let stem = [...title.replace(/\s+/g, " ")]
    .map((character) => {
      const code = character.codePointAt(0)!;
      return code < 0x20 || code === 0x7f || '/\\:*?"<>|'.includes(character) ? "_" : character;
    })
    .join("")
    .replace(/^[\s.]+|[\s.]+$/g, "");
  while (Buffer.byteLength(stem, "utf8") > MAX_STEM_BYTES) stem = [...stem].slice(0, -1).join("");
  return stem.trimEnd();
}

/** The extension of a name (`clip.MOV` → `MOV`), when it looks like one. */
function extensionOf(name: string | null | undefined): string | undefined {
  return /\.([A-Za-z0-9]{1,5})$/.exec(name ?? "")?.[1];
}

/**
 * `<title>.<ext>` for the original (the extension the uploaded file had, else
 * the type's), `<title>-<role>.<ext>` for a rendition or the cover. A title
 * that already ends with the extension keeps it once.
 */
export function downloadFileName(
  story: Pick<Story, "id" | "title" | "originalName">,
  role: string,
  contentType: string,
  originalName?: string | null,
): string {
  const extension =
    (role === "original" ? extensionOf(originalName ?? story.originalName) : undefined) ??
    EXTENSIONS[contentType] ??
    "bin";
  const stem =
    fileStem(story.title) || fileStem((originalName ?? story.originalName ?? "").replace(/\.[^.]*$/, "")) || story.id;
  const base = stem.toLowerCase().endsWith(`.${extension.toLowerCase()}`) ? stem.slice(0, -extension.length - 1) : stem;
  return `${base}${role === "original" ? "" : `-${role}`}.${extension}`;
}

/** Finds the blob behind a download and records downloads as story actions; the routes send it (sendBlob, sendZip). */
export class StoryDownloads {
  constructor(
    private readonly stories: StoriesRepository,
    private readonly actions: StoryActionsRepository,
    /** Where the files are; the routes hand it to sendBlob and sendZip. */
    readonly blobs: BlobStore,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** The file a download asks for: 404 for a story of another library, a missing version or rendition. */
  async resolve(request: DownloadRequest): Promise<ResolvedDownload> {
    const story = await this.stories.find(request.storyId);
    if (!story || story.libraryId !== request.libraryId) {
      throw new NotFound(`story ${request.storyId} is not in library ${request.libraryId}`);
    }
    const role = request.rendition ?? "original";
    const versionNo = request.versionNo ?? story.versionNo;
    if (role === "cover") {
      if (!story.coverKey) throw new NotFound("rendition: the story has no cover");
      const file = await this.stories.fileByBlobKey(story.coverKey);
      const contentType = file?.mime ?? "image/jpeg";
      return { blobKey: story.coverKey, fileName: downloadFileName(story, "cover", contentType), contentType };
    }
    const file = (await this.stories.files([story.id], versionNo)).find((candidate) => candidate.role === role);
    if (!file) throw new NotFound(`rendition: version ${versionNo} of story ${story.id} has no ${role} file`);
    const version = (await this.stories.versions(story.id)).find((candidate) => candidate.versionNo === versionNo);
    return {
      blobKey: file.blobKey,
      fileName: downloadFileName(story, role, file.mime, version?.originalName),
      contentType: file.mime,
    };
  }

  /** Records downloads as story actions, all or none. */
  async record(actor: Actor, downloads: { request: DownloadRequest; resolved: ResolvedDownload }[]): Promise<void> {
    const at = this.clock().toISOString();
    await this.actions.recordMany(
      downloads.map(({ request, resolved }) => ({
        libraryId: request.libraryId,
        storyId: request.storyId,
        userId: actor.id,
        username: actor.username,
        action: "download" as const,
        ip: actor.ip,
        details: {
          rendition: request.rendition ?? "original",
          versionNo: request.versionNo ?? null,
          fileName: resolved.fileName,
        },
      })),
      at,
    );
  }
}
