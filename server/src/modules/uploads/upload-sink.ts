import type { Transaction } from "kysely";
import type { Database } from "../../db/schema.js";
import type { MediaKind } from "../../media/sniff.js";

/** A finished upload, stored as a blob with its registry row. */
export interface StoredUpload {
  /** The tus upload id. */
  id: string;
  userId: string;
  /** `blobs.key`, e.g. `originals/ab/cd/<uuid>`. */
  blobKey: string;
  /** Hex SHA-256 of the content. */
  sha256: string;
  size: number;
  /** From the content (magic bytes), never from the client. */
  mime: string;
  kind: MediaKind;
  /** The file name the client sent in Upload-Metadata (`filename` or `name`), or null. */
  originalName: string | null;
  /** The client's Upload-Metadata, decoded (e.g. libraryId, folderId, title), less what the server sets. */
  metadata: Record<string, string>;
}

/**
 * What happens to a finished upload after it is stored: the stories module
 * creates the draft story. It runs inside the transaction that inserts the
 * `blobs` row, so the story, the row (and any job enqueued with
 * `{ transaction }`) commit together or not at all; when it throws, the blob
 * is deleted again and the client gets the error (a domain error such as
 * Forbidden — no write access to the library named in the metadata — keeps
 * its status and message). Its result is sent to the
 * client as `data.result` in the answer to the last PATCH (or the POST, with
 * creation-with-upload).
 */
export interface UploadSink {
  onUploadStored(upload: StoredUpload, context: { transaction: Transaction<Database> }): Promise<unknown>;
}

/** The sink until the stories module provides one: the blob and its row are kept, nothing else happens. */
export const registryOnlySink: UploadSink = {
  async onUploadStored() {
    return null;
  },
};
