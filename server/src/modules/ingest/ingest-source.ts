import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { SNIFF_BYTES, type SniffedType, sniffBuffer, sniffFile } from "../../media/sniff.js";
import type { BlobStore } from "../blobs/blob-store.js";

/**
 * Bytes the ingest can read the start of and move into the blob store: a
 * finished tus upload where it was staged (a directory, or the S3 bucket,
 * where the move is a server-side copy), or a local file.
 */
export interface StagedBytes {
  size(): Promise<number>;
  /** The type by the first bytes (RefusedFileType outside the allow-list). */
  sniff(): Promise<SniffedType>;
  /** Hex SHA-256 of the bytes. */
  sha256(): Promise<string>;
  /** Moves the bytes into the blob store under `key`; they are gone from where they were. */
  moveInto(key: string, contentType: string): Promise<void>;
}

/**
 * Where an ingest's bytes are: a file on the local disk (moved into the blob
 * store), a stream (spooled to the work dir while it is hashed), or bytes
 * staged elsewhere. `sha256`, when the caller knows it, saves a read.
 */
export type IngestSource =
  | { file: string; sha256?: string }
  | { stream: Readable; sha256?: string }
  | { staged: StagedBytes };

async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest("hex");
}

/** A local file as StagedBytes; the blob store moves it (or copies and removes it). */
export function fileBytes(file: string, blobs: BlobStore, known?: { sha256?: string }): StagedBytes {
  return {
    size: async () => (await fsp.stat(file)).size,
    sniff: () => sniffFile(file),
    sha256: async () => known?.sha256 ?? (await sha256OfFile(file)),
    moveInto: async (key, contentType) => {
      await blobs.putFile(key, file, { contentType });
    },
  };
}

/**
 * A whole file held in memory (a small upload read in one request): its type by its first bytes, its SHA-256
 * computed once, and its bytes written straight into the blob store (local: a temporary file, fsync, rename;
 * S3: one PutObject).
 */
export function bytesInMemory(bytes: Buffer, blobs: BlobStore): StagedBytes {
  let sha256: string | undefined;
  return {
    size: async () => bytes.length,
    sniff: () => sniffBuffer(bytes.subarray(0, SNIFF_BYTES)),
    sha256: async () => {
      sha256 ??= createHash("sha256").update(bytes).digest("hex");
      return sha256;
    },
    moveInto: async (key, contentType) => {
      await blobs.put(key, Readable.from([bytes]), { contentType });
    },
  };
}

/** A stream written to a file of its own under `workDir`, hashed on the way; `discard` removes what is left. */
export async function spoolStream(
  stream: Readable,
  workDir: string,
): Promise<{ file: string; sha256: string; discard(): Promise<void> }> {
  await fsp.mkdir(workDir, { recursive: true });
  const file = path.join(workDir, randomUUID());
  const hash = createHash("sha256");
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      callback(null, chunk);
    },
  });
  const discard = () => fsp.rm(file, { force: true });
  try {
    await pipeline(stream, tap, fs.createWriteStream(file, { mode: 0o600 }));
  } catch (error) {
    await discard();
    throw error;
  }
  return { file, sha256: hash.digest("hex"), discard };
}
