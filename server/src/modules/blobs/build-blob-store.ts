import type { StorageConfig } from "../../config.js";
import type { BlobStore } from "./blob-store.js";
import { LocalBlobStore } from "./local-blob-store.js";
import { S3BlobStore } from "./s3-blob-store.js";

/** The blob store the configuration asks for; built once, in the composition root. */
export function buildBlobStore(config: StorageConfig): BlobStore {
  switch (config.kind) {
    case "local":
      return new LocalBlobStore(config.directory);
    case "s3":
      return new S3BlobStore(config);
  }
}
