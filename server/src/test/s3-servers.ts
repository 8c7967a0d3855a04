import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  AbortMultipartUploadCommand,
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectsCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
} from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { inject } from "vitest";
import type { S3StorageConfig } from "../modules/blobs/s3-blob-store.js";

/** An S3 server a test stores into: its configuration for dams, and how to tear it down. */
export interface TestS3Server {
  config: S3StorageConfig;
  close(): Promise<void>;
}

/**
 * s3rver (npm), a quick fake in a temporary directory: it speaks put, get with
 * ranges, copy, ListObjectsV2, multipart and presigned URLs, but answers 405 to
 * ListParts and does not verify signatures. For tests that need the real
 * protocol, use the Ceph RGW (`startRgwBucket`).
 */
export async function startTestS3Server(options: { presignedDownloads?: boolean } = {}): Promise<TestS3Server> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "dams-s3-"));
  const bucket = "dams-test";
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory: path.join(directory, "objects"),
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  return {
    config: {
      kind: "s3",
      bucket,
      region: "us-east-1",
      endpoint: `http://127.0.0.1:${port}`,
      forcePathStyle: true,
      // s3rver's fixed key pair.
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
      presignedDownloads: options.presignedDownloads ?? false,
      scratchDirectory: path.join(directory, "scratch"),
    },
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** Whether `npm test`'s Ceph RGW is there (the global set-up checked it); suites skip without it. */
export function rgwAvailable(): boolean {
  return inject("rgw") !== null;
}

/** An S3 client for the test RGW, with the checksum settings RGW (Pacific) needs. */
export function rgwClient(): S3Client {
  const rgw = inject("rgw");
  if (!rgw) throw new Error("no Ceph RGW: start one with scripts/ceph-rgw.mjs (npm test does)");
  return new S3Client({
    region: "us-east-1",
    endpoint: rgw.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: rgw.accessKeyId, secretAccessKey: rgw.secretAccessKey },
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}

/** Deletes every object and unfinished multipart upload of a bucket, then the bucket. */
export async function removeBucket(client: S3Client, bucket: string): Promise<void> {
  let token: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
    const objects = (page.Contents ?? []).map((object) => ({ Key: object.Key! }));
    if (objects.length > 0)
      await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: objects } }));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  const uploads = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
  for (const upload of uploads.Uploads ?? []) {
    await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: upload.Key, UploadId: upload.UploadId }));
  }
  await client.send(new DeleteBucketCommand({ Bucket: bucket }));
}

/**
 * A bucket of its own on the Ceph RGW `npm test` runs (scripts/ceph-rgw.mjs):
 * the real S3 protocol, signatures checked. Closing empties and removes it.
 */
export async function startRgwBucket(options: { presignedDownloads?: boolean } = {}): Promise<TestS3Server> {
  const rgw = inject("rgw")!;
  const client = rgwClient();
  const bucket = `dams-test-${randomBytes(6).toString("hex")}`;
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "dams-rgw-scratch-"));
  return {
    config: {
      kind: "s3",
      bucket,
      region: "us-east-1",
      endpoint: rgw.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: rgw.accessKeyId, secretAccessKey: rgw.secretAccessKey },
      presignedDownloads: options.presignedDownloads ?? false,
      scratchDirectory: scratch,
    },
    async close() {
      await removeBucket(client, bucket);
      client.destroy();
      fs.rmSync(scratch, { recursive: true, force: true });
    },
  };
}
