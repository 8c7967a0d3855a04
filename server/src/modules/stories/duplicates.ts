/** Perceptual hashes are 64 bits written as 16 lower-case hex characters. */
export const PERCEPTUAL_HASH = /^[0-9a-f]{16}$/;

export function hammingDistance(a: string, b: string): number {
  let difference = BigInt(`0x${a}`) ^ BigInt(`0x${b}`);
  let bits = 0;
  while (difference > 0n) {
    bits += Number(difference & 1n);
    difference >>= 1n;
  }
  return bits;
}

/** The 64 bits split into `parts` nearly equal slices, each as a string key. */
function slices(hash: string, parts: number): string[] {
  const bits = BigInt(`0x${hash}`).toString(2).padStart(64, "0");
  const keys: string[] = [];
  for (let part = 0; part < parts; part++) {
    const start = Math.floor((part * 64) / parts);
    const end = Math.floor(((part + 1) * 64) / parts);
    keys.push(`${part}:${bits.slice(start, end)}`);
  }
  return keys;
}

export interface NearPair {
  a: string;
  b: string;
  distance: number;
}

/**
 * Pairs of hashes at most `maxDistance` bits apart. Two hashes that differ in
 * at most d bits agree exactly on at least one of d+1 slices (pigeonhole), so
 * only items sharing a slice are compared: no all-pairs scan.
 */
export function nearPairs(items: { id: string; hash: string }[], maxDistance: number): NearPair[] {
  const buckets = new Map<string, number[]>();
  items.forEach((item, index) => {
    for (const key of slices(item.hash, maxDistance + 1)) {
      const bucket = buckets.get(key);
      if (bucket) bucket.push(index);
      else buckets.set(key, [index]);
    }
  });
  const seen = new Set<string>();
  const pairs: NearPair[] = [];
  for (const bucket of buckets.values()) {
    for (let i = 0; i < bucket.length; i++) {
      for (let j = i + 1; j < bucket.length; j++) {
        const a = items[bucket[i]!]!;
        const b = items[bucket[j]!]!;
        const key = a.id < b.id ? `${a.id}|${b.id}` : `${b.id}|${a.id}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const distance = hammingDistance(a.hash, b.hash);
        if (distance <= maxDistance) pairs.push({ a: a.id, b: b.id, distance });
      }
    }
  }
  return pairs;
}

/** Connected groups of ids from pairs (union-find), each group sorted, groups by their first id. */
export function groupPairs(pairs: NearPair[]): string[][] {
  const parent = new Map<string, string>();
  const root = (id: string): string => {
    let current = id;
    while (parent.get(current) !== current) current = parent.get(current)!;
    parent.set(id, current);
    return current;
  };
  for (const { a, b } of pairs) {
    if (!parent.has(a)) parent.set(a, a);
    if (!parent.has(b)) parent.set(b, b);
    const ra = root(a);
    const rb = root(b);
    if (ra !== rb) parent.set(ra, rb);
  }
  const groups = new Map<string, string[]>();
  for (const id of parent.keys()) {
    const key = root(id);
    const group = groups.get(key);
    if (group) group.push(id);
    else groups.set(key, [id]);
  }
  return [...groups.values()].map((group) => group.sort()).sort((x, y) => x[0]!.localeCompare(y[0]!));
}
