import { createHash, type Hash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pipeline, type Readable, Transform } from "node:stream";
import { pipeline as pipelineAsync } from "node:stream/promises";
import { FileStore } from "@tus/file-store";

/** What the tus server names uploads (16 random bytes, hex) — and nothing else gets near the file system. */
export const UPLOAD_ID = /^[0-9a-f]{32}$/;

/** An unfinished upload may be resumed for this long after its creation; then removeAbandoned deletes it. */
export const UPLOAD_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/** Uploads whose running hash is kept; past this the oldest are forgotten (they are hashed from disk at the end). */
const MAX_TRACKED = 10_000;

/**
 * The tus file store, hashing the bytes as they arrive: when the last byte
 * lands, the SHA-256 is already known and the finished file needs no second
 * read. The running hash lives in memory, so after a restart (or when a
 * PATCH lands on another node, or a write ended in an error) it is gone and
 * `sha256Of` reads the file once instead: never a wrong hash, only a slower one.
 */
export class HashingFileStore extends FileStore {
  readonly #running = new Map<string, { hash: Hash; offset: number }>();

  constructor(readonly uploadDirectory: string) {
    // Not tus's expiration extension: it re-reads a finished upload after the POST that completed it, which
    // is gone by then (moved into the blob store). Abandoned uploads are removed by removeAbandoned instead.
    super({ directory: uploadDirectory });
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const previous = this.#running.get(id);
    this.#running.delete(id);
    const running =
      previous?.offset === offset ? previous : offset === 0 ? { hash: createHash("sha256"), offset } : null;
    if (!running) return super.write(readable, id, offset);

    let seen = 0;
    const tap = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        running.hash.update(chunk);
        seen += chunk.length;
        callback(null, chunk);
      },
    });
    const newOffset = await super.write(
      pipeline(readable, tap, () => {}),
      id,
      offset,
    );
    // Keep the hash only if it saw exactly the bytes that reached the file.
    if (seen === newOffset - offset) {
      if (this.#running.size >= MAX_TRACKED) this.#running.delete(this.#running.keys().next().value!);
      this.#running.set(id, { hash: running.hash, offset: newOffset });
    }
    return newOffset;
  }

  override async remove(id: string): Promise<void> {
    this.#running.delete(id);
    await super.remove(id);
  }

  /** The SHA-256 (hex) of a finished upload of `size` bytes: from the running hash, or one read of the file. */
  async sha256Of(id: string, size: number): Promise<{ sha256: string; fromRunningHash: boolean }> {
    const running = this.#running.get(id);
    this.#running.delete(id);
    if (running?.offset === size) return { sha256: running.hash.digest("hex"), fromRunningHash: true };
    const hash = createHash("sha256");
    await pipelineAsync(fs.createReadStream(this.fileOf(id)), hash);
    return { sha256: hash.digest("hex"), fromRunningHash: false };
  }

  /** Forgets a finished upload whose file was moved away (into the blob store). */
  async forget(id: string): Promise<void> {
    this.#running.delete(id);
    await this.configstore.delete(id);
  }

  /** Deletes unfinished uploads created more than `lifetimeMs` ago; returns their ids. */
  async removeAbandoned(lifetimeMs = UPLOAD_LIFETIME_MS, now = new Date()): Promise<string[]> {
    const removed: string[] = [];
    for (const id of (await this.configstore.list?.()) ?? []) {
      const upload = await this.configstore.get(id);
      const created = upload?.creation_date ? Date.parse(upload.creation_date) : Number.NaN;
      if (!UPLOAD_ID.test(id) || Number.isNaN(created) || now.getTime() - created <= lifetimeMs) continue;
      await this.remove(id).catch(() => this.configstore.delete(id));
      removed.push(id);
    }
    return removed;
  }

  /** The file holding the upload's bytes (ids are checked by the routes: no separators). */
  fileOf(id: string): string {
    if (!UPLOAD_ID.test(id)) throw new Error(`not an upload id: ${id}`);
    return path.join(this.uploadDirectory, id);
  }
}

// FileStore's constructor creates its directory with fs.mkdir and a callback
// that throws where nothing can catch it: an unhandled error when the data dir
// goes away early (a test, the OpenAPI script). Here the directory is made
// synchronously, so a failure is an ordinary exception at construction.
// (The method is private in FileStore's types, hence the cast.)
(HashingFileStore.prototype as unknown as { checkOrCreateDirectory(this: FileStore): void }).checkOrCreateDirectory =
  function (this: FileStore) {
    fs.mkdirSync(this.directory, { recursive: true, mode: 0o700 });
  };
