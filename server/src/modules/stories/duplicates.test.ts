import { describe, expect, it } from "vitest";
import { groupPairs, hammingDistance, nearPairs } from "./duplicates.js";

/** A deterministic pseudo-random 64-bit hash (xorshift), as 16 hex characters. */
function* hashes(seed: bigint): Generator<string> {
  let state = seed;
  const mask = (1n << 64n) - 1n;
  for (;;) {
    state ^= (state << 13n) & mask;
    state ^= state >> 7n;
    state ^= (state << 17n) & mask;
    yield state.toString(16).padStart(16, "0");
  }
}

function flip(hash: string, bits: number[]): string {
  let value = BigInt(`0x${hash}`);
  for (const bit of bits) value ^= 1n << BigInt(bit);
  return value.toString(16).padStart(16, "0");
}

describe("perceptual-hash duplicates", () => {
  it("measures the Hamming distance of two hex hashes", () => {
    expect(hammingDistance("0000000000000000", "0000000000000000")).toBe(0);
    expect(hammingDistance("0000000000000000", "ffffffffffffffff")).toBe(64);
    expect(hammingDistance("f0f0f0f0f0f0f0f0", "f0f0f0f0f0f0f0f3")).toBe(2);
  });

  it("finds exactly the pairs an all-pairs scan finds", () => {
    const source = hashes(0x9e3779b97f4a7c15n);
    const items: { id: string; hash: string }[] = [];
    for (let index = 0; index < 150; index++) {
      const hash = source.next().value as string;
      items.push({ id: `s${index}`, hash });
      // Near copies with 1 to 8 bits flipped, spread over the 64 bits.
      if (index % 5 === 0) {
        const bits = Array.from({ length: (index % 8) + 1 }, (_, n) => (n * 9 + index) % 64);
        items.push({ id: `c${index}`, hash: flip(hash, [...new Set(bits)]) });
      }
    }
    for (const maxDistance of [0, 3, 6, 10]) {
      const expected: string[] = [];
      for (let i = 0; i < items.length; i++) {
        for (let j = i + 1; j < items.length; j++) {
          const distance = hammingDistance(items[i]!.hash, items[j]!.hash);
          if (distance <= maxDistance) expected.push([items[i]!.id, items[j]!.id].sort().join("|"));
        }
      }
      const found = nearPairs(items, maxDistance).map((pair) => [pair.a, pair.b].sort().join("|"));
      expect(found.sort()).toEqual(expected.sort());
      if (maxDistance >= 6) expect(found.length).toBeGreaterThan(10);
    }
  });

  it("groups pairs transitively", () => {
    expect(
      groupPairs([
        { a: "b", b: "c", distance: 1 },
        { a: "a", b: "b", distance: 2 },
        { a: "x", b: "y", distance: 0 },
      ]),
    ).toEqual([
      ["a", "b", "c"],
      ["x", "y"],
    ]);
  });
});
