import { randomUUID } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { NotFound } from "../../http/errors.js";
import { assertValidBlobKey } from "./blob-keys.js";
import type { BlobStore, ByteRange, StoredBlob } from "./blob-store.js";

const STALE_TEMPORARY_MS = 60 * 60 * 1000;

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === "ENOENT";
}

/** Flushes a directory entry (a rename or a new file) to the disk. */
async function syncDirectory(directory: string): Promise<void> {
  const handle = await fsp.open(directory, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Flushes a file's bytes to the disk (fsync works on the file, whichever descriptor wrote it); returns its size. */
async function syncFile(file: string): Promise<number> {
  const handle = await fsp.open(file, "r+");
  try {
    await handle.sync();
    return (await handle.stat()).size;
  } finally {
    await handle.close();
  }
}

/**
 * Blobs as files under one directory (the data dir's `blobs/`). Writes go to
 * `.tmp/` first, are fsynced, then renamed into place, so a reader or a crash
 * never sees half a blob. Keys are checked before they become paths.
 */
export class LocalBlobStore implements BlobStore {
  readonly kind = "local" as const;
  readonly #root: string;
  readonly #temporary: string;

  constructor(root: string, now = Date.now()) {
    this.#root = path.resolve(root);
    this.#temporary = path.join(this.#root, ".tmp");
    fs.mkdirSync(this.#temporary, { recursive: true });
    // What a crash left half-written; an hour's grace spares a write another process has in flight.
    for (const name of fs.readdirSync(this.#temporary)) {
      const file = path.join(this.#temporary, name);
      if (now - fs.statSync(file).mtimeMs > STALE_TEMPORARY_MS) fs.rmSync(file, { force: true });
    }
  }

  #path(key: string): string {
    assertValidBlobKey(key);
    const file = path.join(this.#root, key);
    // The key pattern already forbids `..`; this is the belt to those braces.
    if (!file.startsWith(`${this.#root}${path.sep}`)) throw new NotFound();
    return file;
  }

  async #moveIntoPlace(source: string, target: string): Promise<void> {
    const directory = path.dirname(target);
    try {
      await fsp.rename(source, target);
    } catch (error) {
      // The key's directory is made when the first blob under it arrives, not before every write.
      if (!isMissing(error)) throw error;
      await this.#makeDirectory(directory);
      await fsp.rename(source, target);
    }
    await syncDirectory(directory);
  }

  /**
   * Makes a key's directory and flushes every directory above it up to the root, so the new
   * entries (and with them the path to the blob) survive a crash. Flushing all of them, not only
   * the ones this call made, covers a concurrent write that made them first and is still flushing.
   * Rare (once per directory), so the few extra fsyncs cost nothing per upload.
   */
  async #makeDirectory(directory: string): Promise<void> {
    await fsp.mkdir(directory, { recursive: true });
    for (let parent = path.dirname(directory); ; parent = path.dirname(parent)) {
      await syncDirectory(parent);
      if (parent === this.#root || parent === path.dirname(parent)) break;
    }
  }

  async put(key: string, body: Readable): Promise<StoredBlob> {
    const target = this.#path(key);
    const temporary = path.join(this.#temporary, randomUUID());
    try {
      await pipeline(body, fs.createWriteStream(temporary, { flags: "wx" }));
      const size = await syncFile(temporary);
      await this.#moveIntoPlace(temporary, target);
      return { key, size };
    } catch (error) {
      await fsp.rm(temporary, { force: true });
      throw error;
    }
  }

  async putFile(key: string, file: string): Promise<StoredBlob> {
    const target = this.#path(key);
    // The source (a finished tus upload) was written without fsync: flush it before it becomes a blob.
    const size = await syncFile(file);
    try {
      await this.#moveIntoPlace(file, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
      // Another file system: copy through .tmp, then drop the source.
      await this.put(key, fs.createReadStream(file));
      await fsp.rm(file, { force: true });
    }
    return { key, size };
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.#path(key);
    const handle = await fsp.open(file, "r").catch((error: unknown) => {
      if (isMissing(error)) throw new NotFound(`blob ${key} does not exist`, "blob_not_found");
      throw error;
    });
    return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  async stat(key: string): Promise<{ size: number; modifiedAt: Date } | null> {
    try {
      const stats = await fsp.stat(this.#path(key));
      return stats.isFile() ? { size: stats.size, modifiedAt: stats.mtime } : null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.#path(key), { force: true });
  }

  async *list(prefix: string): AsyncIterable<string> {
    // Walk the deepest directory the prefix names, then filter by the rest.
    const slash = prefix.lastIndexOf("/");
    const directory = slash < 0 ? "" : prefix.slice(0, slash);
    yield* this.#walk(directory, prefix);
  }

  async *#walk(directory: string, prefix: string): AsyncGenerator<string> {
    let entries: fs.Dirent[];
    try {
      entries = await fsp.readdir(path.join(this.#root, directory), { withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith(".")) continue;
      const key = directory ? `${directory}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (key.startsWith(prefix) || prefix.startsWith(`${key}/`)) yield* this.#walk(key, prefix);
      } else if (entry.isFile() && key.startsWith(prefix)) {
        yield key;
      }
    }
  }

  async withLocalFile<T>(key: string, work: (file: string) => Promise<T>): Promise<T> {
    const file = this.#path(key);
    if (!(await this.stat(key))) throw new NotFound(`blob ${key} does not exist`, "blob_not_found");
    return work(file);
  }

  async presignedUrl(): Promise<string | null> {
    return null;
  }
}
