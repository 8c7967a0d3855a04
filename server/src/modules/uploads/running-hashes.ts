import { createHash, type Hash } from "node:crypto";
import { pipeline, type Readable, Transform } from "node:stream";

/** Uploads whose running hash is kept; past this the oldest are forgotten (they are hashed from the store at the end). */
const MAX_TRACKED = 10_000;

/**
 * SHA-256 of uploads computed while their bytes arrive, so the last byte finds
 * the hash ready. A hash lives in this process only: after a restart, on
 * another node, or after a write that ended in an error it is gone, and the
 * store reads the finished upload once instead — slower, never wrong.
 */
export class RunningHashes {
  readonly #running = new Map<string, { hash: Hash; offset: number }>();

  /**
   * Wraps the bytes of a write at `offset`: `source` is what the store should
   * consume, `settle(newOffset)` keeps the hash when it saw exactly the bytes
   * that were stored. Without a hash that ends at `offset` (and not at the
   * start) the bytes pass untouched.
   */
  tap(id: string, offset: number, readable: Readable): { source: Readable; settle(newOffset: number): void } {
    const previous = this.#running.get(id);
    this.#running.delete(id);
    const running =
      previous?.offset === offset ? previous : offset === 0 ? { hash: createHash("sha256"), offset } : null;
    if (!running) return { source: readable, settle() {} };
    let seen = 0;
    const tap = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        running.hash.update(chunk);
        seen += chunk.length;
        callback(null, chunk);
      },
    });
    return {
      source: pipeline(readable, tap, () => {}),
      settle: (newOffset) => {
        if (seen !== newOffset - offset) return;
        if (this.#running.size >= MAX_TRACKED) this.#running.delete(this.#running.keys().next().value!);
        this.#running.set(id, { hash: running.hash, offset: newOffset });
      },
    };
  }

  /** The hex digest of a finished upload of `size` bytes, when this process saw all of them; then forgotten. */
  take(id: string, size: number): string | undefined {
    const running = this.#running.get(id);
    this.#running.delete(id);
    return running?.offset === size ? running.hash.digest("hex") : undefined;
  }

  forget(id: string): void {
    this.#running.delete(id);
  }
}
