// The S3 side of the scale-out bench's ingest part: the large test file, the
// SDK client for RGW and the direct multipart upload the API is compared with.
import { createHash, randomBytes, randomFillSync } from "node:crypto";
import fs from "node:fs";
import { performance } from "node:perf_hooks";
import { pipeline } from "node:stream/promises";
import {
  AbortMultipartUploadCommand,
  DeleteObjectsCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import type { RgwState } from "../scripts/ceph-rgw.mjs";

const MiB = 1024 * 1024;
/** `aws s3 cp`'s defaults (multipart_chunksize, max_concurrent_requests). */
export const SDK_PART = 8 * MiB;
export const SDK_QUEUE = 10;

/** A real JPEG head (the upload's content check must accept it), then random bytes, written to `file`. */
export async function writeLargeFile(file: string, size: number, headFile: string): Promise<string> {
  const head = fs.readFileSync(headFile);
  const hash = createHash("sha256");
  const out = fs.openSync(file, "w");
  try {
    fs.writeSync(out, head);
    hash.update(head);
    const chunk = Buffer.allocUnsafe(16 * MiB);
    for (let offset = head.length; offset < size; offset += chunk.length) {
      const piece = chunk.subarray(0, Math.min(chunk.length, size - offset));
      randomFillSync(piece);
      fs.writeSync(out, piece);
      hash.update(piece);
    }
  } finally {
    fs.closeSync(out);
  }
  // Read once more so both uploads start with the file in the page cache.
  await pipeline(fs.createReadStream(file), createHash("sha256"));
  return hash.digest("hex");
}

export function s3Client(rgw: RgwState): S3Client {
  return new S3Client({
    region: rgw.region,
    endpoint: rgw.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: rgw.accessKeyId, secretAccessKey: rgw.secretAccessKey },
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}

/** Deletes every object and aborts every multipart upload in the bucket, so the memory store has room again. */
export async function emptyBucket(client: S3Client, bucket: string): Promise<number> {
  let removed = 0;
  for (;;) {
    const page = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
    const keys = (page.Contents ?? []).map((object) => ({ Key: object.Key! }));
    if (keys.length === 0) break;
    await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys } }));
    removed += keys.length;
  }
  const uploads = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
  for (const upload of uploads.Uploads ?? []) {
    await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: upload.Key, UploadId: upload.UploadId }));
  }
  return removed;
}

/** The SDK's multipart upload straight to RGW; resolves with the seconds it took. */
export async function uploadDirect(client: S3Client, bucket: string, file: string, size: number): Promise<number> {
  const key = `bench/direct-${randomBytes(4).toString("hex")}.jpg`;
  const started = performance.now();
  await new Upload({
    client,
    params: { Bucket: bucket, Key: key, Body: fs.createReadStream(file), ContentType: "image/jpeg" },
    partSize: SDK_PART,
    queueSize: SDK_QUEUE,
  }).done();
  const elapsed = (performance.now() - started) / 1000;
  const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
  if (head.ContentLength !== size) throw new Error(`direct upload stored ${head.ContentLength} bytes, not ${size}`);
  return elapsed;
}
