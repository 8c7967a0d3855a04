import { AppError, Invalid } from "../../http/errors.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { Actor } from "../auth/actor.js";
import type { BlobStore } from "../blobs/blob-store.js";
import type { IngestService } from "../ingest/ingest.service.js";
import { fileBytes, spoolStream } from "../ingest/ingest-source.js";
import type { LibrariesService } from "../libraries/libraries.service.js";
import type { StoryAccess } from "../stories/story-access.js";
import type { StoryDownloads } from "../stories/story-downloads.service.js";
import { type DiskNodeView, type DiskService, diskTarget } from "./disk.service.js";

export interface SentFile {
  nodeId: string;
  name: string;
  /** The story the file became; absent when it was refused (`error`). */
  story?: { libraryId: string; storyId: string; versionNo: number };
  duplicates?: { libraryId: string; storyId: string; title: string }[];
  /** Why the file did not become a story (a type the library does not take). */
  error?: { code: string; msg: string };
}

export interface DiskTransferDependencies {
  disk: DiskService;
  blobs: BlobStore;
  ingest: Pick<IngestService, "ingestFile">;
  libraries: Pick<LibrariesService, "require">;
  storyAccess: Pick<StoryAccess, "forRead">;
  downloads: Pick<StoryDownloads, "resolve">;
  audit: AuditLog;
  /** Scratch space for copies (under the data dir). */
  workDir: string;
}

/** Between the disk and the libraries: files become stories through the ingest command; a story's original lands on a disk. */
export class DiskTransferService {
  constructor(private readonly deps: DiskTransferDependencies) {}

  /**
   * Each file (download access needed) becomes a draft story in the library
   * and folder through IngestService.ingestFile: sniffed, hashed, stored,
   * processed, duplicates reported. The disk keeps its file. A file the
   * library does not take is answered with its error; the others go on.
   */
  async sendToLibrary(
    actor: Actor,
    input: { nodeIds: string[]; libraryId: string; folderId?: string | null },
  ): Promise<SentFile[]> {
    await this.deps.libraries.require(actor, input.libraryId, "write");
    const files = [];
    for (const [index, id] of input.nodeIds.entries()) {
      const { node } = await this.deps.disk.require(actor, id, "download");
      if (node.kind !== "file" || !node.blobKey) throw new Invalid(`nodeIds.${index}: not a file`, "not_a_file");
      files.push(node);
    }
    const sent: SentFile[] = [];
    for (const node of files) {
      try {
        const made = await this.deps.ingest.ingestFile({
          source: { stream: await this.deps.blobs.get(node.blobKey!), sha256: node.sha256 ?? undefined },
          originalName: node.name,
          userId: actor.id,
          ip: actor.ip,
          libraryId: input.libraryId,
          folderId: input.folderId ?? null,
        });
        sent.push({
          nodeId: node.id,
          name: node.name,
          story: { libraryId: made.libraryId, storyId: made.storyId, versionNo: made.versionNo },
          duplicates: made.duplicates,
        });
        await this.deps.audit.recordEvent(actor, {
          action: "disk.send-to-library",
          target: diskTarget(node),
          details: { libraryId: made.libraryId, storyId: made.storyId },
        });
      } catch (error) {
        if (!(error instanceof AppError) || error.status >= 500 || error.status === 403 || error.status === 404)
          throw error;
        sent.push({ nodeId: node.id, name: node.name, error: { code: error.code, msg: error.message } });
      }
    }
    return sent;
  }

  /** A story's current original (read access to its library) copied into a disk folder the caller may write. */
  async saveFromStory(
    actor: Actor,
    input: { libraryId: string; storyId: string; parentId: string | null },
  ): Promise<DiskNodeView> {
    const story = await this.deps.storyAccess.forRead(actor, input.libraryId, input.storyId, "storyId");
    const original = await this.deps.downloads.resolve({ libraryId: story.libraryId, storyId: story.id });
    await this.deps.disk.writableFolder(actor, input.parentId);
    const spooled = await spoolStream(await this.deps.blobs.get(original.blobKey), this.deps.workDir);
    try {
      const { node } = await this.deps.disk.storeFile(
        actor,
        input.parentId,
        { name: original.fileName, bytes: fileBytes(spooled.file, this.deps.blobs, { sha256: spooled.sha256 }) },
        "rename",
      );
      return node;
    } finally {
      await spooled.discard();
    }
  }
}
