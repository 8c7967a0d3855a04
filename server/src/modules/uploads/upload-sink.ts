import type { Kysely } from "kysely";
import type { Db } from "../../db/database.js";
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

/** Writes the upload's `blobs` row inside the transaction it is given. */
export type InsertBlobRow = (transaction: Kysely<Database>) => Promise<void>;

/**
 * What happens to a finished upload after its bytes are in the blob store:
 * the stories module creates the draft story. The sink owns the transaction
 * and must call `insertBlobRow` inside it, so the story, the `blobs` row (and
 * any job enqueued in it) commit together or not at all; when it throws, the
 * blob is deleted again and the client gets the error (a domain error such as
 * Forbidden — no write access to the library named in the metadata — keeps
 * its status and message). Its result is sent to the client as `data.result`
 * in the answer to the last PATCH (or the POST, with creation-with-upload).
 */
export interface UploadSink {
  onUploadStored(upload: StoredUpload, context: { insertBlobRow: InsertBlobRow }): Promise<unknown>;
}

/** The sink without stories: the blob and its row are kept, nothing else happens. */
export function registryOnlySink(db: Db): UploadSink {
  return {
    async onUploadStored(_upload, { insertBlobRow }) {
      await db.kysely.transaction().execute(insertBlobRow);
      return null;
    },
  };
}
