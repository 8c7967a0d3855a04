import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline as pipelineAsync } from "node:stream/promises";
import { FileConfigstore, FileStore } from "@tus/file-store";
import type { Upload } from "@tus/utils";
import { RunningHashes } from "./running-hashes.js";

/** What the tus server names uploads (16 random bytes, hex) — and nothing else gets near the file system. */
export const UPLOAD_ID = /^[0-9a-f]{32}$/;

/** An unfinished upload may be resumed for this long after its creation; then removeAbandoned deletes it. */
export const UPLOAD_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The tus file store (a local directory, or one every API node mounts),
 * hashing the bytes as they arrive (RunningHashes): when the last byte lands
 * the SHA-256 is usually known, else `sha256Of` reads the file once.
 */
export class HashingFileStore extends FileStore {
  readonly #hashes = new RunningHashes();

  constructor(readonly uploadDirectory: string) {
    // Not tus's expiration extension: it re-reads a finished upload after the POST that completed it, which
    // is gone by then (moved into the blob store). Abandoned uploads are removed by removeAbandoned instead.
    super({ directory: uploadDirectory, configstore: new UnlinkingConfigstore(uploadDirectory) });
  }

  /**
   * An empty file and its description, as FileStore makes them, without making the directory first
   * before every upload (it is made at construction; again only when it has gone missing).
   */
  override async create(upload: Upload): Promise<Upload> {
    const file = this.fileOf(upload.id);
    await fsp.writeFile(file, "").catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw error;
      await fsp.mkdir(this.uploadDirectory, { recursive: true, mode: 0o700 });
      await fsp.writeFile(file, "");
    });
    await this.configstore.set(upload.id, upload);
    upload.storage = { type: "file", path: file };
    return upload;
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const { source, settle } = this.#hashes.tap(id, offset, readable);
    const newOffset = await super.write(source, id, offset);
    settle(newOffset);
    return newOffset;
  }

  override async remove(id: string): Promise<void> {
    this.#hashes.forget(id);
    await super.remove(id);
  }

  /** The first bytes (for the content check) of a finished upload of `size` bytes, when this process saw them all. */
  headOf(id: string, size: number): Buffer | undefined {
    return this.#hashes.headOf(id, size);
  }

  /** The SHA-256 (hex) of a finished upload of `size` bytes: from the running hash, or one read of the file. */
  async sha256Of(id: string, size: number): Promise<{ sha256: string; fromRunningHash: boolean }> {
    const running = this.#hashes.take(id, size);
    if (running) return { sha256: running, fromRunningHash: true };
    const hash = createHash("sha256");
    await pipelineAsync(fs.createReadStream(this.fileOf(id)), hash);
    return { sha256: hash.digest("hex"), fromRunningHash: false };
  }

  /**
   * A second name (a hard link) for a finished upload's file, under
   * `.moving/`, for the blob store to take away while the upload keeps its
   * own; a copy where links are not possible. The caller deletes it.
   */
  async linkForMove(id: string): Promise<string> {
    const directory = path.join(this.uploadDirectory, ".moving");
    const moving = path.join(directory, `${id}-${randomUUID()}`);
    const linkOrCopy = () => fsp.link(this.fileOf(id), moving).catch(() => fsp.copyFile(this.fileOf(id), moving));
    try {
      await linkOrCopy();
    } catch (error) {
      // The directory is made once, when it is not there yet, not before every move.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      await fsp.mkdir(directory, { recursive: true, mode: 0o700 });
      await linkOrCopy();
    }
    return moving;
  }

  /** Forgets a finished upload whose file was moved away (into the blob store). */
  async forget(id: string): Promise<void> {
    this.#hashes.forget(id);
    await this.configstore.delete(id);
  }

  /** Deletes unfinished uploads created more than `lifetimeMs` ago; returns their ids. */
  async removeAbandoned(lifetimeMs = UPLOAD_LIFETIME_MS, now = new Date()): Promise<string[]> {
    const removed: string[] = [];
    // Second names a crash left in `.moving/` (making the link sets ctime; an hour is far longer than any move).
    const moving = path.join(this.uploadDirectory, ".moving");
    for (const name of await fsp.readdir(moving).catch(() => [] as string[])) {
      const file = path.join(moving, name);
      const stats = await fsp.stat(file).catch(() => undefined);
      if (stats && now.getTime() - stats.ctimeMs > 60 * 60 * 1000) await fsp.rm(file, { force: true });
    }
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

/** tus's description files, deleted with one unlink (its fs.rm stats the file twice first). */
class UnlinkingConfigstore extends FileConfigstore {
  override async delete(key: string): Promise<void> {
    if (!UPLOAD_ID.test(key)) throw new Error(`not an upload id: ${key}`);
    await fsp.unlink(path.join(this.directory, `${key}.json`));
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
