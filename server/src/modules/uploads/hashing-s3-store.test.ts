import { createHash, randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { HeadObjectCommand, S3Client } from "@aws-sdk/client-s3";
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
  let client: S3Client;

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
    client = new S3Client(s3ClientConfig);
  });

  afterAll(async () => {
    client?.destroy();
    await bucket?.close();
  });

  /** A new upload of `file` in writes of `writes` bytes, each on the node `on` names ("a" or "b"); both nodes' running hashes. */
  async function upload(file: Buffer, writes: number[], on: string) {
    const id = `uploads/${randomBytes(16).toString("hex")}`;
    await nodes[0].create(new Upload({ id, size: file.length, offset: 0, metadata: {} }));
    let offset = 0;
    for (const [index, bytes] of writes.entries()) {
      const node = on[index] === "b" ? nodes[1] : nodes[0];
      offset = await node.write(Readable.from([file.subarray(offset, offset + bytes)]), id, offset);
    }
    expect(offset).toBe(file.length);
    const saved = await client
      .send(new HeadObjectCommand({ Bucket: bucket.config.bucket, Key: `${id}.sha256` }))
      .then(() => true)
      .catch(() => false);
    return { a: nodes[0].hashes.take(id, file.length), b: nodes[1].hashes.take(id, file.length), saved };
  }

  it("hashes an upload whose writes all land on one node in that node, with node:crypto", async () => {
    const file = randomBytes(7 * MiB);
    expect(await upload(file, [file.length], "a")).toEqual({ a: sha256(file), b: undefined, saved: false });
    expect(await upload(file, [6 * MiB, MiB], "aa")).toEqual({ a: sha256(file), b: undefined, saved: false });
  });

  it("keeps no hash, and saves no state to the bucket, when the writes alternate between nodes (read back at the end)", async () => {
    const file = randomBytes(7 * MiB);
    expect(await upload(file, [6 * MiB, MiB], "ab")).toEqual({ a: undefined, b: undefined, saved: false });
  });
});
