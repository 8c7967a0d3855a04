import { createHash, randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { type SavedHash, type SavedHashStore, SharedRunningHashes } from "./shared-running-hashes.js";

/** The saved states of one bucket, shared by the "nodes" below. */
function sharedStore(): SavedHashStore & { saved: Map<string, SavedHash> } {
  const saved = new Map<string, SavedHash>();
  return {
    saved,
    read: async (id) => saved.get(id),
    write: async (id, state) => void saved.set(id, state),
  };
}

/** A write as the store does it: consumes `source` and stores `stored` of its bytes (all of them unless told). */
async function write(
  hashes: SharedRunningHashes,
  id: string,
  offset: number,
  bytes: Buffer,
  size: number,
  stored?: number,
  wholeUpload = false,
) {
  const { source, settle } = await hashes.tap(
    id,
    offset,
    Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]),
    wholeUpload,
  );
  let consumed = 0;
  for await (const chunk of source) consumed += (chunk as Buffer).length;
  const newOffset = offset + (stored ?? consumed);
  await settle(newOffset, size);
  return newOffset;
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

describe("SharedRunningHashes", () => {
  it("continues the hash on whichever node takes the next write, and the last one has the file's SHA-256", async () => {
    const store = sharedStore();
    const nodes = [new SharedRunningHashes(store), new SharedRunningHashes(store)];
    const file = randomBytes(10_000);
    let offset = 0;
    for (const [index, end] of [3_000, 3_100, 7_777, 10_000].entries()) {
      offset = await write(nodes[index % 2]!, "u1", offset, file.subarray(offset, end), file.length);
    }
    expect(await nodes[1]!.take("u1", file.length)).toBe(sha256(file));
  });

  it.each([
    ["hash-wasm", false],
    ["node:crypto: the write was announced to carry the whole upload", true],
  ])(
    "keeps the state of a finished upload in the process only (%s); another node then has no hash",
    async (_, whole) => {
      const store = sharedStore();
      const [a, b] = [new SharedRunningHashes(store), new SharedRunningHashes(store)];
      const file = randomBytes(5_000);
      await write(a, "u2", 0, file, file.length, undefined, whole);
      expect(store.saved.has("u2")).toBe(false);
      expect(await b.take("u2", file.length)).toBeUndefined();
      expect(await a.take("u2", file.length)).toBe(sha256(file));
    },
  );

  it("gives no hash after a write whose bytes were not all stored, even when later writes go on", async () => {
    const store = sharedStore();
    const [a, b] = [new SharedRunningHashes(store), new SharedRunningHashes(store)];
    const file = randomBytes(6_000);
    await write(a, "u3", 0, file.subarray(0, 2_000), file.length);
    // The store kept 1 500 of 2 000 bytes (a write that failed half-way): the hash saw 500 bytes too many.
    const offset = await write(b, "u3", 2_000, file.subarray(2_000, 4_000), file.length, 1_500);
    await write(a, "u3", offset, file.subarray(offset), file.length);
    expect(await a.take("u3", file.length)).toBeUndefined();
    expect(await b.take("u3", file.length)).toBeUndefined();
  });

  it("leaves no state when a write announced as the whole upload ends short, so the next node has no hash", async () => {
    const store = sharedStore();
    const [a, b] = [new SharedRunningHashes(store), new SharedRunningHashes(store)];
    const file = randomBytes(6_000);
    await write(a, "u5", 0, file.subarray(0, 2_500), file.length, undefined, true);
    expect(store.saved.has("u5")).toBe(false);
    await write(b, "u5", 2_500, file.subarray(2_500), file.length);
    expect(await b.take("u5", file.length)).toBeUndefined();
    expect(await a.take("u5", file.length)).toBeUndefined();
  });
});
