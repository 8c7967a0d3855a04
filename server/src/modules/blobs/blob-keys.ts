import { randomUUID } from "node:crypto";
import { Invalid } from "../../http/errors.js";

/** Segments of a key: no empty, dot-only or hidden segments, no separators other than `/`. */
const KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

/** Where uploaded originals go; the sweeper looks only here. */
export const ORIGINALS_PREFIX = "originals/";

/**
 * A server-generated key for an original: `originals/ab/cd/<uuid>`. The two
 * levels of fan-out keep directories small on the local store.
 */
export function newOriginalKey(): string {
  const id = randomUUID();
  return `${ORIGINALS_PREFIX}${id.slice(0, 2)}/${id.slice(2, 4)}/${id}`;
}

export function isValidBlobKey(key: string): boolean {
  return key.length <= 512 && KEY.test(key);
}

/** Keys are ours, but a key is also a path on the local store: refuse anything that could leave it. */
export function assertValidBlobKey(key: string): void {
  if (!isValidBlobKey(key)) throw new Invalid(`not a valid blob key: ${JSON.stringify(key)}`, "invalid_blob_key");
}
