import { NotFound } from "../../http/errors.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { BlobStore } from "../blobs/blob-store.js";
import { downloadName, extensionForType, safeFileNameText, TYPE_EXTENSIONS } from "../blobs/file-names.js";
import type { EmbedLevel, OutgoingCopies } from "../outgoing/outgoing-copies.js";
import type { StoriesRepository } from "./stories.repository.js";
import type { StoryAccess } from "./story-access.js";
import { storyAction, storyAudit } from "./story-action.js";
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

/** Bytes a file name's stem may take in UTF-8 (file systems stop at 255 for the whole name). */
const MAX_STEM_BYTES = 200;

/**
 * A title as a file name's stem: whitespace as one space, then safe as a file
 * name (`safeFileNameText`); bounded.
 */
export function fileStem(title: string): string {
  let stem = safeFileNameText(title.replace(/\s+/g, " "));
  while (Buffer.byteLength(stem, "utf8") > MAX_STEM_BYTES) stem = [...stem].slice(0, -1).join("");
  return stem.trimEnd();
}

/** The extension of a name (`clip.MOV` → `MOV`), when it looks like one. */
function extensionOf(name: string | null | undefined): string | undefined {
  return /\.([A-Za-z0-9]{1,5})$/.exec(name ?? "")?.[1];
}

/**
 * `<title>.<ext>` for the original, `<title>-<role>.<ext>` for a rendition
 * or the cover. The extension is the content type's (sniffed from the bytes),
 * or the uploaded file's when the type is known by it (`.JPEG`, `.tiff`); a
 * title that already ends with the extension keeps it once.
 */
export function downloadFileName(
  story: Pick<Story, "id" | "title" | "originalName">,
  role: string,
  contentType: string,
  originalName?: string | null,
): string {
  const uploaded = role === "original" ? extensionOf(originalName ?? story.originalName) : undefined;
  const typeKnowsIt = uploaded !== undefined && TYPE_EXTENSIONS[contentType]?.includes(uploaded.toLowerCase());
  const extension = (typeKnowsIt ? uploaded : extensionForType(contentType)) ?? "bin";
  const stem =
    fileStem(story.title) || fileStem((originalName ?? story.originalName ?? "").replace(/\.[^.]*$/, "")) || story.id;
  const base = stem.toLowerCase().endsWith(`.${extension.toLowerCase()}`) ? stem.slice(0, -extension.length - 1) : stem;
  return downloadName(`${base}${role === "original" ? "" : `-${role}`}.${extension}`, contentType);
}

/** Finds the blob behind a download and records downloads as story actions; the routes send it (sendBlob, sendZip). */
export class StoryDownloads {
  /** Embeds the story's metadata into originals on their way out (set by the composition root). */
  outgoing: Pick<OutgoingCopies, "file"> | undefined;
  /** The properties a user may not see (field-level access; set by the composition root): not embedded for them. */
  hiddenFor: ((user: Pick<Actor, "admin" | "roleId">) => Promise<ReadonlySet<string>>) | undefined;

  constructor(
    private readonly stories: StoriesRepository,
    private readonly access: StoryAccess,
    private readonly actions: StoryActionsRepository,
    /** Where the files are; the routes hand it to sendBlob and sendZip. */
    readonly blobs: BlobStore,
    private readonly audit: AuditLog,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** The file a download asks for: 404 for a story of another library, a missing version or rendition. */
  async resolve(request: DownloadRequest): Promise<ResolvedDownload> {
    const story = await this.access.find(request.libraryId, request.storyId);
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

  /**
   * The file a download sends: for an original, the copy carrying the story's
   * current metadata (and without location for a visitor), made by the
   * outgoing module on the first request; any other rendition as stored.
   * `hidden`: the properties the caller may not see, left out of the copy.
   */
  async resolveOutgoing(
    request: DownloadRequest,
    options: { level?: EmbedLevel; stripPrivate?: boolean; hidden?: ReadonlySet<string>; signal?: AbortSignal } = {},
  ): Promise<ResolvedDownload & { etag?: string }> {
    const resolved = await this.resolve(request);
    if ((request.rendition ?? "original") !== "original" || !this.outgoing) return resolved;
    const story = await this.access.find(request.libraryId, request.storyId);
    return this.outgoing.file(resolved, story, { level: options.level ?? "all", ...options });
  }

  /** Records downloads as story actions and in the operation log (one entry per file), all or none of each. */
  async record(actor: Actor, downloads: { request: DownloadRequest; resolved: ResolvedDownload }[]): Promise<void> {
    const at = this.clock().toISOString();
    await this.actions.recordMany(
      downloads.map(({ request, resolved }) =>
        storyAction(actor, { libraryId: request.libraryId, id: request.storyId }, "download", {
          rendition: request.rendition ?? "original",
          versionNo: request.versionNo ?? null,
          fileName: resolved.fileName,
        }),
      ),
      at,
    );
    await this.audit.recordEvent(
      actor,
      downloads.map(({ request, resolved }) =>
        storyAudit({ libraryId: request.libraryId, id: request.storyId }, "download", {
          details: {
            rendition: request.rendition ?? "original",
            versionNo: request.versionNo ?? null,
            fileName: resolved.fileName,
          },
        }),
      ),
    );
  }
}
