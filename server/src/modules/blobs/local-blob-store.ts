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

  /** Renames a flushed file into place and flushes the directories whose entries changed. */
  async #moveIntoPlace(source: string, target: string): Promise<void> {
    await Promise.all((await this.#rename(source, target)).map(syncDirectory));
  }

  /**
   * Renames `source` to `target`, making the key's directory when it is missing (when the first blob
   * under it arrives, not before every write); answers the directories to flush for the new names to
   * survive a crash: the key's, and when directories were made, every one above it up to the root —
   * all of them, not only the ones this call made, which covers a concurrent write that made them
   * first and is still flushing.
   */
  async #rename(source: string, target: string): Promise<string[]> {
    const directory = path.dirname(target);
    try {
      await fsp.rename(source, target);
      return [directory];
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
    await fsp.mkdir(directory, { recursive: true });
    await fsp.rename(source, target);
    const directories = [directory];
    for (let parent = directory; parent !== this.#root && parent !== path.dirname(parent); ) {
      parent = path.dirname(parent);
      directories.push(parent);
    }
    return directories;
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

  /**
   * The source (a finished tus upload, written without fsync) is renamed
   * first, then it and the directories the rename changed are flushed at
   * once: the flushes share one journal commit (ext4, xfs) where one after
   * the other each waited for its own — two to five per blob, the key's
   * directories being new for most of a young store's uploads. Durable
   * either way when putFile returns; nobody reads the key before (its row
   * comes after), and a crash before leaves an orphan the sweeper removes.
   */
  async putFile(key: string, file: string): Promise<StoredBlob> {
    const target = this.#path(key);
    let directories: string[];
    try {
      directories = await this.#rename(file, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
      // Another file system: copy through .tmp, then drop the source.
      const stored = await this.put(key, fs.createReadStream(file));
      await fsp.rm(file, { force: true });
      return stored;
    }
    const [size] = await Promise.all([syncFile(target), ...directories.map(syncDirectory)]);
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
