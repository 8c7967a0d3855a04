import { createHash, type Hash } from "node:crypto";
import { pipeline, type Readable, Transform } from "node:stream";
import { SNIFF_BYTES } from "../../media/sniff.js";

/** Uploads whose running hash is kept; past this the oldest are forgotten (they are hashed from the store at the end). */
const MAX_TRACKED = 10_000;
/** Of those, how many keep their first bytes for the content check (64 KiB each: 16 MiB at most). */
const MAX_HEADS = 256;

/**
 * SHA-256 of uploads computed while their bytes arrive, so the last byte finds
 * the hash ready. A hash lives in this process only: after a restart, on
 * another node, or after a write that ended in an error it is gone, and the
 * store reads the finished upload once instead — slower, never wrong.
 */
export class RunningHashes {
  readonly #running = new Map<string, { hash: Hash; offset: number; head?: Buffer }>();
  /** How many entries of #running hold a head. */
  #heads = 0;

  /**
   * Wraps the bytes of a write at `offset`: `source` is what the store should
   * consume, `settle(newOffset)` keeps the hash when it saw exactly the bytes
   * that were stored. Without a hash that ends at `offset` (and not at the
   * start) the bytes pass untouched.
   */
  tap(id: string, offset: number, readable: Readable): { source: Readable; settle(newOffset: number): void } {
    const previous = this.#take(id);
    const running =
      previous?.offset === offset ? previous : offset === 0 ? { hash: createHash("sha256"), offset } : null;
    if (!running) return { source: readable, settle() {} };
    let seen = 0;
    // The first bytes, kept for the content check (which then need not read the file), from a write at 0.
    const head: Buffer[] | undefined =
      offset === 0 && this.#heads < MAX_HEADS
        ? []
        : running.head && running.offset < SNIFF_BYTES
          ? [running.head]
          : undefined;
    let headBytes = offset === 0 ? 0 : running.offset;
    const tap = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        running.hash.update(chunk);
        seen += chunk.length;
        if (head && headBytes < SNIFF_BYTES) {
          const part = chunk.subarray(0, SNIFF_BYTES - headBytes);
          head.push(Buffer.from(part));
          headBytes += part.length;
        }
        callback(null, chunk);
      },
    });
    return {
      source: pipeline(readable, tap, () => {}),
      settle: (newOffset) => {
        if (seen !== newOffset - offset) return;
        if (this.#running.size >= MAX_TRACKED) this.#take(this.#running.keys().next().value!);
        const kept = head ? Buffer.concat(head) : running.head;
        if (kept) this.#heads++;
        this.#running.set(id, { hash: running.hash, offset: newOffset, head: kept });
      },
    };
  }

  /** Removes an upload's entry, answering it. */
  #take(id: string): { hash: Hash; offset: number; head?: Buffer } | undefined {
    const running = this.#running.get(id);
    if (!running) return undefined;
    this.#running.delete(id);
    if (running.head) this.#heads--;
    return running;
  }

  /**
   * The first bytes (up to SNIFF_BYTES) of a finished upload of `size` bytes, when this process saw
   * all of them (as `take`); the entry stays for `take`.
   */
  headOf(id: string, size: number): Buffer | undefined {
    const running = this.#running.get(id);
    return running?.offset === size && running.head?.length === Math.min(size, SNIFF_BYTES) ? running.head : undefined;
  }

  /** The hex digest of a finished upload of `size` bytes, when this process saw all of them; then forgotten. */
  take(id: string, size: number): string | undefined {
    const running = this.#take(id);
    return running?.offset === size ? running.hash.digest("hex") : undefined;
  }

  forget(id: string): void {
    this.#take(id);
  }
}
