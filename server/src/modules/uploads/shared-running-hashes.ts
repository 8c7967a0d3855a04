import { pipeline, type Readable, Transform } from "node:stream";
import { createSHA256, type IHasher } from "hash-wasm";

/** A running SHA-256's saved state (hash-wasm's `save()`) after the upload's first `offset` bytes. */
export interface SavedHash {
  offset: number;
  state: Uint8Array;
}

/** Where the saved states live so that every node reads them (the S3 staging: an object beside the upload). */
export interface SavedHashStore {
  read(id: string): Promise<SavedHash | undefined>;
  write(id: string, saved: SavedHash): Promise<void>;
}

/** States kept in this process as well; past this the oldest are forgotten (they are read from the store). */
const MAX_KEPT = 10_000;

/**
 * SHA-256 of uploads computed while their bytes arrive, continued by
 * whichever node takes the next write: the hash's state is saved at the end
 * of each write (hash-wasm can save and load it; node:crypto's cannot be
 * taken out of the process) and loaded by the next one. A write that does not
 * start where a saved state ends (one that failed half-way, a lost save)
 * leaves the upload without a running hash, and its bytes are hashed from the
 * store at the end — slower, never wrong.
 *
 * A write that ends the upload keeps its state only in this process: the
 * completion normally follows in the same request, and the rare one on
 * another node (after a crash) reads the upload back instead.
 */
export class SharedRunningHashes {
  readonly #kept = new Map<string, SavedHash>();

  constructor(private readonly store: SavedHashStore) {}

  /**
   * Wraps the bytes of a write at `offset`: `source` is what the store should
   * consume, `settle(newOffset, size)` saves the hash when it saw exactly the
   * bytes that were stored (`size`: the upload's, when known).
   */
  async tap(
    id: string,
    offset: number,
    readable: Readable,
  ): Promise<{ source: Readable; settle(newOffset: number, size: number | undefined): Promise<void> }> {
    const hasher = await this.#hasherAt(id, offset);
    if (!hasher) return { source: readable, settle: async () => {} };
    let seen = 0;
    const tap = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        hasher.update(chunk);
        seen += chunk.length;
        callback(null, chunk);
      },
    });
    return {
      source: pipeline(readable, tap, () => {}),
      settle: async (newOffset, size) => {
        if (seen !== newOffset - offset) return;
        const saved = { offset: newOffset, state: hasher.save() };
        this.#keep(id, saved);
        // Not saved, the next write finds no state and the upload is read back at the end.
        if (newOffset !== size) await this.store.write(id, saved).catch(() => {});
      },
    };
  }

  /** The hex digest of a finished upload of `size` bytes, when a saved state covers all of them; then forgotten here. */
  async take(id: string, size: number): Promise<string | undefined> {
    const hasher = await this.#hasherAt(id, size);
    this.#kept.delete(id);
    return hasher?.digest("hex");
  }

  forget(id: string): void {
    this.#kept.delete(id);
  }

  async #hasherAt(id: string, offset: number): Promise<IHasher | undefined> {
    const hasher = await createSHA256();
    if (offset === 0) return hasher;
    const kept = this.#kept.get(id);
    const saved = kept?.offset === offset ? kept : await this.store.read(id).catch(() => undefined);
    this.#kept.delete(id);
    if (saved?.offset !== offset) return undefined;
    return hasher.load(saved.state);
  }

  #keep(id: string, saved: SavedHash): void {
    if (this.#kept.size >= MAX_KEPT) this.#kept.delete(this.#kept.keys().next().value!);
    this.#kept.set(id, saved);
  }
}
