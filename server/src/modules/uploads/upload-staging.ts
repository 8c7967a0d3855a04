import { randomBytes } from "node:crypto";
import fsp from "node:fs/promises";
import type { DataStore } from "@tus/utils";
import { type SniffedType, sniffBuffer, sniffFile } from "../../media/sniff.js";
import type { BlobStore } from "../blobs/blob-store.js";
import { type HashingFileStore, UPLOAD_ID, UPLOAD_LIFETIME_MS } from "./hashing-file-store.js";

/**
 * Where tus uploads in progress live until their last byte: a directory (the
 * local disk, or one every API node mounts) or the S3 bucket
 * (S3UploadStaging). Every node must see the same uploads: a PATCH may land on
 * any of them.
 */
export interface UploadStaging {
  /** What the tus server writes the bytes to. */
  readonly datastore: DataStore;
  /** A new upload id (the store's own name for it). */
  newId(): string;
  /** The id behind a URL's last segment, or null when it cannot be an upload of ours. */
  idFromUrl(segment: string): string | null;
  /** The URL's last segment for an id (what clients see as the upload's id). */
  urlSegment(id: string): string;
  /** The upload's Upload-Metadata (with the owner the server recorded), or undefined when there is no such upload. */
  metadataOf(id: string): Promise<Record<string, string | null> | undefined>;
  /** The finished upload's type, by its first bytes (`size`: the upload's, when known, for bytes seen on the way in). */
  sniff(id: string, size?: number): Promise<SniffedType>;
  /** SHA-256 (hex) of a finished upload of `size` bytes: from the running hash, or one read of the bytes. */
  sha256Of(id: string, size: number): Promise<string>;
  /**
   * Puts a finished upload's bytes into the blob store under `key`. With
   * `keepStaged` the staged bytes stay where they are until `remove` (the
   * upload can be completed again after a crash before its story was
   * recorded); without it they are gone afterwards.
   */
  moveInto(id: string, key: string, contentType: string, options?: { keepStaged?: boolean }): Promise<void>;
  /**
   * The upload when all its bytes are staged (its length is known and its
   * offset has reached it), else undefined (unfinished, or not here).
   */
  finishedUpload(
    id: string,
  ): Promise<{ id: string; size: number; metadata: Record<string, string | null> } | undefined>;
  /** The ids of the uploads staged here (finished or not); an empty list where they cannot be listed. */
  list(): Promise<string[]>;
  /** Deletes an upload, finished or not, bytes and description. */
  remove(id: string): Promise<void>;
  /** Forgets a finished upload whose bytes were moved away (its description, its running hash). */
  forget(id: string): Promise<void>;
  /** Deletes uploads created more than `lifetimeMs` ago; returns their ids. */
  removeAbandoned(lifetimeMs?: number, now?: Date): Promise<string[]>;
}

/** What the tus server calls a new upload: 16 random bytes, hex. */
export function newUploadSegment(): string {
  return randomBytes(16).toString("hex");
}

/** Uploads as files in a directory (HashingFileStore); finished ones go into the blob store with putFile. */
export class DirectoryStaging implements UploadStaging {
  constructor(
    readonly datastore: HashingFileStore,
    private readonly blobs: BlobStore,
  ) {}

  newId(): string {
    return newUploadSegment();
  }

  idFromUrl(segment: string): string | null {
    return UPLOAD_ID.test(segment) ? segment : null;
  }

  urlSegment(id: string): string {
    return id;
  }

  async metadataOf(id: string): Promise<Record<string, string | null> | undefined> {
    const upload = await this.datastore.configstore.get(id);
    return upload ? (upload.metadata ?? {}) : undefined;
  }

  sniff(id: string, size?: number): Promise<SniffedType> {
    // The first bytes as they arrived, when this process saw the whole upload: the file is not read again.
    const head = size === undefined ? undefined : this.datastore.headOf(id, size);
    return head ? sniffBuffer(head) : sniffFile(this.datastore.fileOf(id));
  }

  async sha256Of(id: string, size: number): Promise<string> {
    return (await this.datastore.sha256Of(id, size)).sha256;
  }

  async moveInto(id: string, key: string, contentType: string, options: { keepStaged?: boolean } = {}): Promise<void> {
    if (!options.keepStaged) {
      await this.blobs.putFile(key, this.datastore.fileOf(id), { contentType });
      return;
    }
    // A second name for the same bytes (a hard link, no copy) goes into the blob store; the upload's own
    // name stays until `remove`, so a crash before the story is recorded loses nothing.
    const moving = await this.datastore.linkForMove(id);
    try {
      await this.blobs.putFile(key, moving, { contentType });
    } finally {
      // Gone when the store renamed it into place (one unlink, not fs.rm's two stats first).
      await fsp.unlink(moving).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "ENOENT") throw error;
      });
    }
  }

  async finishedUpload(id: string) {
    if (!UPLOAD_ID.test(id)) return undefined;
    const upload = await this.datastore.getUpload(id).catch(() => undefined);
    if (!upload || upload.size === undefined || upload.offset !== upload.size) return undefined;
    return { id, size: upload.size, metadata: upload.metadata ?? {} };
  }

  async list(): Promise<string[]> {
    return ((await this.datastore.configstore.list?.()) ?? []).filter((id) => UPLOAD_ID.test(id));
  }

  remove(id: string): Promise<void> {
    return this.datastore.remove(id);
  }

  forget(id: string): Promise<void> {
    return this.datastore.forget(id);
  }

  removeAbandoned(lifetimeMs = UPLOAD_LIFETIME_MS, now = new Date()): Promise<string[]> {
    return this.datastore.removeAbandoned(lifetimeMs, now);
  }
}
