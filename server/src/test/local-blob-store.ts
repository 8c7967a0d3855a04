// TEMPORARY test stand-in, to be replaced by the blobs module's local BlobStore
// once it lands. Used ONLY by tests; the product never imports this file.
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { NotFound } from "../http/errors.js";
import type { BlobStore, ByteRange, StoredBlob } from "../modules/blobs/blob-store.js";

export class TestLocalBlobStore implements BlobStore {
  readonly kind = "local" as const;

  constructor(private readonly root: string) {}

  #file(key: string): string {
    if (key.includes("..")) throw new Error(`bad key ${key}`);
    return path.join(this.root, key);
  }

  async put(key: string, body: Readable): Promise<StoredBlob> {
    const file = this.#file(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await pipeline(body, createWriteStream(file));
    return { key, size: (await fs.stat(file)).size };
  }

  async putFile(key: string, source: string): Promise<StoredBlob> {
    const file = this.#file(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.rename(source, file);
    return { key, size: (await fs.stat(file)).size };
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    if (!(await this.stat(key))) throw new NotFound(`blob ${key} does not exist`);
    return createReadStream(this.#file(key), range ? { start: range.start, end: range.end } : {});
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      return { size: (await fs.stat(this.#file(key))).size };
    } catch {
      return null;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.#file(key), { force: true });
  }

  async *list(prefix: string): AsyncIterable<string> {
    const entries = await fs.readdir(this.root, { recursive: true, withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const key = path.relative(this.root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/");
      if (key.startsWith(prefix)) yield key;
    }
  }

  async withLocalFile<T>(key: string, work: (file: string) => Promise<T>): Promise<T> {
    return work(this.#file(key));
  }

  async presignedUrl(): Promise<string | null> {
    return null;
  }
}
