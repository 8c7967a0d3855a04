import { createHash, randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { Upload } from "@tus/utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rgwAvailable, startRgwBucket, type TestS3Server } from "../../test/s3-servers.js";
import { HashingS3Store } from "./hashing-s3-store.js";

const MiB = 1024 * 1024;
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

describe.skipIf(!rgwAvailable())("HashingS3Store's running hash (Ceph RGW)", () => {
  let bucket: TestS3Server;
  /** Two nodes' stores on one bucket. */
  let nodes: [HashingS3Store, HashingS3Store];

  beforeAll(async () => {
    bucket = await startRgwBucket();
    const { config } = bucket;
    const s3ClientConfig = {
      bucket: config.bucket,
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      credentials: config.credentials,
      requestChecksumCalculation: "WHEN_REQUIRED" as const,
      responseChecksumValidation: "WHEN_REQUIRED" as const,
    };
    const store = () => new HashingS3Store({ partSize: 5 * MiB, maxConcurrentPartUploads: 2, s3ClientConfig });
    nodes = [store(), store()];
  });

  afterAll(async () => {
    await bucket?.close();
  });

  /** A new upload of `file`, its first write (announced or not) on node A, the rest on node B; B's running hash. */
  async function splitUpload(file: Buffer, firstWrite: number, announced: boolean) {
    const [a, b] = nodes;
    const id = `uploads/${randomBytes(16).toString("hex")}`;
    await a.create(new Upload({ id, size: file.length, offset: 0, metadata: {} }));
    if (announced) a.announceWrite(id, file.length);
    const offset = await a.write(Readable.from([file.subarray(0, firstWrite)]), id, 0);
    if (offset < file.length) await b.write(Readable.from([file.subarray(offset)]), id, offset);
    return { a: await a.hashes.take(id, file.length), b: await b.hashes.take(id, file.length) };
  }

  it("hashes a write announced to carry the whole upload in the node that took it", async () => {
    const file = randomBytes(7 * MiB);
    expect(await splitUpload(file, file.length, true)).toEqual({ a: sha256(file), b: undefined });
  });

  it("saves no state after an announced whole-upload write that ends short (node:crypto's), unlike an unannounced one", async () => {
    const file = randomBytes(7 * MiB);
    // Unannounced: hash-wasm's state is saved, and node B finishes the hash.
    expect(await splitUpload(file, 6 * MiB, false)).toEqual({ a: undefined, b: sha256(file) });
    // Announced but cut short: node:crypto's state stayed in A, so B has none (the completion reads the upload back).
    expect(await splitUpload(file, 6 * MiB, true)).toEqual({ a: undefined, b: undefined });
  });
});
