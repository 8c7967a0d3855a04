import { createHash, randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { SNIFF_BYTES } from "../../media/sniff.js";
import { RunningHashes } from "./running-hashes.js";

/** A write as the file store does it: consumes `source` in chunks of 10 000 bytes; all stored unless told. */
async function write(hashes: RunningHashes, id: string, offset: number, bytes: Buffer, stored?: number) {
  const chunks = [];
  for (let at = 0; at < bytes.length; at += 10_000) chunks.push(bytes.subarray(at, at + 10_000));
  const { source, settle } = hashes.tap(id, offset, Readable.from(chunks));
  let consumed = 0;
  for await (const chunk of source) consumed += (chunk as Buffer).length;
  const newOffset = offset + (stored ?? consumed);
  settle(newOffset);
  return newOffset;
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

describe("RunningHashes", () => {
  it("keeps a finished upload's first bytes for the content check, in one write or several", async () => {
    const hashes = new RunningHashes();
    const small = randomBytes(3000);
    await write(hashes, "small", 0, small);
    expect(hashes.headOf("small", small.length)).toEqual(small);

    const large = randomBytes(SNIFF_BYTES + 50_000);
    let offset = await write(hashes, "large", 0, large.subarray(0, 25_000));
    expect(hashes.headOf("large", large.length)).toBeUndefined(); // not finished yet
    offset = await write(hashes, "large", offset, large.subarray(25_000, 70_000));
    offset = await write(hashes, "large", offset, large.subarray(70_000));
    expect(hashes.headOf("large", large.length)).toEqual(large.subarray(0, SNIFF_BYTES));
    // The head stays for the hash, which is still the whole file's.
    expect(hashes.take("large", large.length)).toBe(sha256(large));
    expect(hashes.headOf("large", large.length)).toBeUndefined();
  });

  it("has no head for an upload whose bytes it did not all see", async () => {
    const hashes = new RunningHashes();
    const bytes = randomBytes(20_000);
    // A write that stored fewer bytes than it passed on (an error mid-way): the hash and head are dropped.
    await write(hashes, "cut", 0, bytes, 5000);
    expect(hashes.headOf("cut", 5000)).toBeUndefined();
    // A write that starts past 0 with nothing running (another process took the first part).
    await write(hashes, "resumed", 5000, bytes.subarray(5000));
    expect(hashes.headOf("resumed", bytes.length)).toBeUndefined();
    // Forgotten uploads keep nothing.
    await write(hashes, "forgotten", 0, bytes);
    hashes.forget("forgotten");
    expect(hashes.headOf("forgotten", bytes.length)).toBeUndefined();
  });
});
