import { createHash } from "node:crypto";
import { pipeline, type Readable, Transform } from "node:stream";
import { createSHA256 } from "hash-wasm";

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

/** A running SHA-256: hash-wasm's, whose state can be saved, or node:crypto's (≈ 3.5× less CPU here), whose cannot. */
interface Hasher {
  update(chunk: Uint8Array): void;
  /** The state to save, or undefined for node:crypto's. */
  save(): Uint8Array | undefined;
  digest(): string;
}

/** A state kept in this process: saved (hash-wasm's) or, for a write that ended the upload, a node:crypto hash. */
type Kept = { offset: number; state: Uint8Array; native?: undefined } | { offset: number; native: Hasher };

function nativeHasher(): Hasher {
  const hash = createHash("sha256");
  return { update: (chunk) => hash.update(chunk), save: () => undefined, digest: () => hash.digest("hex") };
}

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
 * another node (after a crash) reads the upload back instead. So a write
 * from the first byte that is expected to carry the whole upload (one
 * request: most photos, or a client without chunks) is hashed by
 * node:crypto, whose state never has to leave the process; if it then ends
 * short, no state is saved and the upload is read back at the end.
 */
export class SharedRunningHashes {
  readonly #kept = new Map<string, Kept>();

  constructor(private readonly store: SavedHashStore) {}

  /**
   * Wraps the bytes of a write at `offset`: `source` is what the store should
   * consume, `settle(newOffset, size)` saves the hash when it saw exactly the
   * bytes that were stored (`size`: the upload's, when known). `wholeUpload`:
   * the write is expected to carry every byte of the upload (a hint).
   */
  async tap(
    id: string,
    offset: number,
    readable: Readable,
    wholeUpload = false,
  ): Promise<{ source: Readable; settle(newOffset: number, size: number | undefined): Promise<void> }> {
    const hasher = offset === 0 && wholeUpload ? nativeHasher() : await this.#hasherAt(id, offset);
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
        const state = hasher.save();
        if (!state) {
          if (newOffset === size) this.#keep(id, { offset: newOffset, native: hasher });
          return;
        }
        const saved = { offset: newOffset, state };
        this.#keep(id, saved);
        // Not saved, the next write finds no state and the upload is read back at the end.
        if (newOffset !== size) await this.store.write(id, saved).catch(() => {});
      },
    };
  }

  /** The hex digest of a finished upload of `size` bytes, when a saved state covers all of them; then forgotten here. */
  async take(id: string, size: number): Promise<string | undefined> {
    const kept = this.#kept.get(id);
    const hasher = kept?.native && kept.offset === size ? kept.native : await this.#hasherAt(id, size);
    this.#kept.delete(id);
    return hasher?.digest();
  }

  forget(id: string): void {
    this.#kept.delete(id);
  }

  /** hash-wasm's, from the first byte or from the state saved at `offset` (none: undefined). */
  async #hasherAt(id: string, offset: number): Promise<Hasher | undefined> {
    const hasher = await createSHA256();
    const portable: Hasher = {
      update: (chunk) => void hasher.update(chunk),
      save: () => hasher.save(),
      digest: () => hasher.digest("hex"),
    };
    if (offset === 0) return portable;
    const kept = this.#kept.get(id);
    const saved = kept?.offset === offset && !kept.native ? kept : await this.store.read(id).catch(() => undefined);
    this.#kept.delete(id);
    if (saved?.offset !== offset) return undefined;
    hasher.load(saved.state);
    return portable;
  }

  #keep(id: string, saved: Kept): void {
    if (this.#kept.size >= MAX_KEPT) this.#kept.delete(this.#kept.keys().next().value!);
    this.#kept.set(id, saved);
  }
}
