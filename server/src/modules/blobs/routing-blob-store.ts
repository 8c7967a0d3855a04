import type { Readable } from "node:stream";
import type { BlobStore, ByteRange, StoredBlob } from "./blob-store.js";

/**
 * Where a key lives when it is not in the built-in store: the storage module
 * answers from its `blob_locations` rows (modules/storage/blob-locator.ts).
 */
export interface BlobLocator {
  /** The store holding `key` (null: the built-in store), and the one a move has not yet deleted it from. */
  locate(key: string): Promise<{ current: BlobStore | null; previous: BlobStore | null } | null>;
  /** The key is gone from every store: its location row goes too. */
  forget(key: string): Promise<void>;
}

/**
 * The BlobStore the rest of the server uses once storage targets exist: each
 * call goes to the store the key lives in (one primary-key lookup), the
 * built-in store when it has no location. Writes go where the key was placed
 * beforehand (StoragePlacement, for a library's new originals), else to the
 * built-in store. `list` walks the built-in store only; the orphan sweeper
 * walks each target's own store (blob-sweeper.ts, storage/sweep-targets.ts).
 */
export class RoutingBlobStore implements BlobStore {
  constructor(
    readonly builtIn: BlobStore,
    private readonly locator: BlobLocator,
  ) {}

  get kind(): "local" | "s3" {
    return this.builtIn.kind;
  }

  async #store(key: string): Promise<BlobStore> {
    return (await this.locator.locate(key))?.current ?? this.builtIn;
  }

  async put(key: string, body: Readable, options?: { contentType?: string }): Promise<StoredBlob> {
    return (await this.#store(key)).put(key, body, options);
  }

  async putFile(key: string, file: string, options?: { contentType?: string }): Promise<StoredBlob> {
    return (await this.#store(key)).putFile(key, file, options);
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    return (await this.#store(key)).get(key, range);
  }

  async stat(key: string): Promise<{ size: number; modifiedAt?: Date } | null> {
    return (await this.#store(key)).stat(key);
  }

  async delete(key: string): Promise<void> {
    const location = await this.locator.locate(key);
    if (!location) return this.builtIn.delete(key);
    await (location.current ?? this.builtIn).delete(key);
    if (location.previous) await location.previous.delete(key);
    await this.locator.forget(key);
  }

  list(prefix: string): AsyncIterable<string> {
    return this.builtIn.list(prefix);
  }

  async withLocalFile<T>(key: string, work: (file: string) => Promise<T>): Promise<T> {
    return (await this.#store(key)).withLocalFile(key, work);
  }

  async presignedUrl(
    key: string,
    options: { fileName: string; contentType: string; expiresInSeconds: number },
  ): Promise<string | null> {
    return (await this.#store(key)).presignedUrl(key, options);
  }
}
