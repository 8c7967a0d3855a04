import type { FastifyBaseLogger } from "fastify";
import { RefusedFileType, sniffFile } from "../../media/sniff.js";
import { newOriginalKey } from "../blobs/blob-keys.js";
import type { BlobStore } from "../blobs/blob-store.js";
import type { BlobsRepository } from "../blobs/blobs.repository.js";
import type { HashingFileStore } from "./hashing-file-store.js";
import type { StoredUpload, UploadSink } from "./upload-sink.js";

/** Upload-Metadata keys the server sets; a client's values for them are dropped. */
export const OWNER_METADATA_KEY = "dams-owner";

export interface FinishedUpload {
  id: string;
  size: number;
  metadata: Record<string, string | null>;
}

export interface UploadOutcome {
  upload: Omit<StoredUpload, "metadata" | "userId">;
  /** What the sink returned (the draft story, once stories exist). */
  result: unknown;
}

function clientMetadata(metadata: Record<string, string | null>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(metadata)) {
    if (name !== OWNER_METADATA_KEY && value !== null) kept[name] = value;
  }
  return kept;
}

/**
 * What happens on an upload's last byte: type by content (refused → the tus
 * upload is deleted and the client told why), SHA-256, move into the blob
 * store under a server-made key, then the registry row and the sink in one
 * transaction. The blob and its row exist together or not at all: when the
 * transaction fails the blob is deleted; a crash between the two leaves an
 * orphan the sweeper removes.
 */
export class UploadsService {
  constructor(
    private readonly deps: {
      uploads: HashingFileStore;
      store: BlobStore;
      blobs: BlobsRepository;
      sink: UploadSink;
      log: FastifyBaseLogger;
    },
  ) {}

  async complete(finished: FinishedUpload): Promise<UploadOutcome> {
    const { uploads, store, blobs, sink, log } = this.deps;
    const userId = finished.metadata[OWNER_METADATA_KEY];
    if (!userId) throw new Error(`upload ${finished.id} has no owner`);
    const file = uploads.fileOf(finished.id);

    let sniffed: Awaited<ReturnType<typeof sniffFile>>;
    try {
      sniffed = await sniffFile(file);
    } catch (error) {
      // Refused content is not kept, not even as an upload to resume.
      if (error instanceof RefusedFileType) await uploads.remove(finished.id).catch(() => {});
      throw error;
    }
    const { sha256 } = await uploads.sha256Of(finished.id, finished.size);
    const metadata = clientMetadata(finished.metadata);
    const stored: StoredUpload = {
      id: finished.id,
      userId,
      blobKey: newOriginalKey(),
      sha256,
      size: finished.size,
      mime: sniffed.mime,
      kind: sniffed.kind,
      originalName: metadata.filename ?? metadata.name ?? null,
      metadata,
    };

    try {
      await store.putFile(stored.blobKey, file, { contentType: stored.mime });
    } catch (error) {
      // A complete upload that cannot be stored must not linger: a client asking HEAD would see it
      // "finished" and stop, with nothing stored. Gone, it is sent again from the start.
      log.error({ err: error, uploadId: finished.id }, "moving a finished upload into the blob store failed");
      await store.delete(stored.blobKey).catch(() => {});
      await uploads.remove(finished.id).catch(() => {});
      throw error;
    }
    let result: unknown;
    try {
      const row = {
        key: stored.blobKey,
        sha256: stored.sha256,
        size: stored.size,
        mime: stored.mime,
        kind: stored.kind,
        original_name: stored.originalName,
        created_by: userId,
        created_at: new Date().toISOString(),
      };
      result = await sink.onUploadStored(stored, {
        insertBlobRow: (transaction) => blobs.insert(row, transaction),
      });
    } catch (error) {
      log.error({ err: error, uploadId: finished.id, blobKey: stored.blobKey }, "storing a finished upload failed");
      await store.delete(stored.blobKey).catch((cleanup: unknown) => {
        // The sweeper will find it: it has no row.
        log.error({ err: cleanup, blobKey: stored.blobKey }, "could not delete the blob of a failed upload");
      });
      await uploads.forget(finished.id).catch(() => {});
      throw error;
    }
    await uploads.forget(finished.id);
    const { metadata: _metadata, userId: _userId, ...upload } = stored;
    return { upload, result };
  }
}
