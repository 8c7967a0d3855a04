import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../config.js";
import { buildBlobStore } from "./build-blob-store.js";

describe("storage configuration", () => {
  it("keeps blobs under the data dir by default", () => {
    const config = loadConfig({ DAMS_DATA_DIR: "/srv/dams" });
    expect(config.storage).toEqual({ kind: "local", directory: path.resolve("/srv/dams/blobs") });
    expect(config.uploads).toEqual({
      store: "directory",
      directory: path.resolve("/srv/dams/uploads"),
      s3: undefined,
      maxBytes: 20 * 1024 ** 3,
      minBytes: 64 * 1024,
      windowMs: 60_000,
      chunkBytes: 0,
      wholeMaxBytes: 16 * 1024 * 1024,
    });
    expect(loadConfig({ DAMS_UPLOAD_CHUNK_MIB: "90" }).uploads.chunkBytes).toBe(90 * 1024 * 1024);
    // A directory every API node mounts.
    expect(loadConfig({ DAMS_UPLOADS_DIR: "/mnt/shared/uploads" }).uploads.directory).toBe("/mnt/shared/uploads");
  });

  it("reads the S3 settings", () => {
    const config = loadConfig({
      DAMS_DATA_DIR: "/srv/dams",
      DAMS_STORAGE: "s3",
      S3_BUCKET: "newsroom-originals",
      S3_ENDPOINT: "http://minio:9000",
      S3_REGION: "eu-central-1",
      S3_ACCESS_KEY_ID: "id",
      S3_SECRET_ACCESS_KEY: "secret",
      S3_FORCE_PATH_STYLE: "true",
      S3_PRESIGNED_DOWNLOADS: "1",
      DAMS_UPLOAD_MAX_BYTES: "1048576",
    });
    expect(config.storage).toEqual({
      kind: "s3",
      bucket: "newsroom-originals",
      endpoint: "http://minio:9000",
      region: "eu-central-1",
      credentials: { accessKeyId: "id", secretAccessKey: "secret" },
      forcePathStyle: true,
      presignedDownloads: true,
      scratchDirectory: path.resolve("/srv/dams/tmp"),
    });
    expect(config.uploads.maxBytes).toBe(1_048_576);
    // Uploads in progress go to the bucket too, unless a (shared) directory is asked for.
    expect(config.uploads).toMatchObject({ store: "s3", s3: config.storage });
    expect(loadConfig({ DAMS_STORAGE: "s3", S3_BUCKET: "b-1", DAMS_UPLOADS_STORE: "directory" }).uploads).toMatchObject(
      { store: "directory", s3: undefined },
    );
    expect(buildBlobStore(config.storage).kind).toBe("s3");
  });

  it("stops with a message naming what is wrong", () => {
    expect(() => loadConfig({ DAMS_STORAGE: "s3" })).toThrow(/S3_BUCKET: required when DAMS_STORAGE=s3/);
    expect(() => loadConfig({ DAMS_STORAGE: "s3", S3_BUCKET: "b-1", S3_ACCESS_KEY_ID: "only-the-id" })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ DAMS_STORAGE: "ftp" })).toThrow(/DAMS_STORAGE/);
    expect(() => loadConfig({ DAMS_UPLOAD_MAX_BYTES: "-1" })).toThrow(/DAMS_UPLOAD_MAX_BYTES/);
    expect(() => loadConfig({ DAMS_UPLOADS_STORE: "s3" })).toThrow(/DAMS_UPLOADS_STORE: s3 needs DAMS_STORAGE=s3/);
  });
});
