import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import type { S3StorageConfig } from "./s3-blob-store.js";

/**
 * A real S3-compatible HTTP server for tests (s3rver, from npm): it checks
 * SigV4 signatures (headers and presigned queries), speaks multipart upload,
 * ranges and ListObjectsV2. It keeps its objects in a temporary directory.
 */
export interface TestS3Server {
  config: S3StorageConfig;
  close(): Promise<void>;
}

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
