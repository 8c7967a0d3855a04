import type { Readable } from "node:stream";
import type { BlobStore, ByteRange, StoredBlob } from "./blob-store.js";

/** A store whose keys all live under `prefix/` of another (an S3 target sharing its bucket with other data). */
export class PrefixedBlobStore implements BlobStore {
  readonly #prefix: string;

  constructor(
    private readonly inner: BlobStore,
    prefix: string,
  ) {
    this.#prefix = `${prefix.replace(/\/+$/, "")}/`;
  }

  get kind(): "local" | "s3" {
    return this.inner.kind;
  }

  #key(key: string): string {
    return this.#prefix + key;
  }

  put(key: string, body: Readable, options?: { contentType?: string }): Promise<StoredBlob> {
    return this.inner.put(this.#key(key), body, options).then((stored) => ({ ...stored, key }));
  }

  putFile(key: string, file: string, options?: { contentType?: string }): Promise<StoredBlob> {
    return this.inner.putFile(this.#key(key), file, options).then((stored) => ({ ...stored, key }));
  }

  get(key: string, range?: ByteRange): Promise<Readable> {
    return this.inner.get(this.#key(key), range);
  }

  stat(key: string): Promise<{ size: number; modifiedAt?: Date } | null> {
    return this.inner.stat(this.#key(key));
  }

  delete(key: string): Promise<void> {
    return this.inner.delete(this.#key(key));
  }

  async *list(prefix: string): AsyncIterable<string> {
    for await (const key of this.inner.list(this.#key(prefix))) yield key.slice(this.#prefix.length);
  }

  withLocalFile<T>(key: string, work: (file: string) => Promise<T>): Promise<T> {
    return this.inner.withLocalFile(this.#key(key), work);
  }

  presignedUrl(
    key: string,
    options: { fileName: string; contentType: string; expiresInSeconds: number },
  ): Promise<string | null> {
    return this.inner.presignedUrl(this.#key(key), options);
  }
}
