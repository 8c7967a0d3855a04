import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  AbortMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
} from "@aws-sdk/client-s3";
import type { KvStore } from "@tus/utils";
import { type SniffedType, sniffBuffer } from "../../media/sniff.js";
import { type S3BlobStore, type S3StorageConfig, s3ClientConfig } from "../blobs/s3-blob-store.js";
import { UPLOAD_LIFETIME_MS } from "./hashing-file-store.js";
import { HashingS3Store } from "./hashing-s3-store.js";
import { newUploadSegment, type UploadStaging } from "./upload-staging.js";

/**
 * Uploads in progress live under this prefix of the blob bucket: `uploads/<id>`, `.info`, `.part` (and `.sha256`,
 * a hash state saved by earlier versions, swept with the rest by removeAbandoned).
 */
export const S3_UPLOAD_PREFIX = "uploads/";
const SEGMENT = /^[0-9a-f]{32}$/;
const SNIFF_BYTES = 64 * 1024;
/** Parts of 16 MiB (the blob store's size); S3 wants at least 5 MiB for every part but the last. */
const PART_SIZE = 16 * 1024 * 1024;

type Metadata = Awaited<ReturnType<KvStore<never>["get"]>>;

/**
 * s3-store keeps each upload's description in a per-process cache; another
 * node may change it (a deferred length declared there), so nothing is
 * cached: each request reads the `.info` object again.
 */
const NO_CACHE: KvStore<never> = {
  get: async () => undefined as Metadata,
  set: async () => {},
  delete: async () => {},
  list: async () => [],
};

/**
 * Uploads in progress as S3 multipart uploads in the blob bucket
 * (`@tus/s3-store`), so every API node sees them; the upload's lock is held in
 * the database (DatabaseLocker). On the last byte the object is complete at
 * `uploads/<id>`; it is sniffed with a ranged GET and moved to its blob key by
 * a server-side copy, never through this process.
 */
export class S3UploadStaging implements UploadStaging {
  readonly datastore: HashingS3Store;

  constructor(
    config: S3StorageConfig,
    private readonly blobs: S3BlobStore,
  ) {
    this.datastore = new HashingS3Store({
      partSize: PART_SIZE,
      maxConcurrentPartUploads: 4,
      cache: NO_CACHE,
      s3ClientConfig: { bucket: config.bucket, ...s3ClientConfig(config) },
    });
  }

  newId(): string {
    return `${S3_UPLOAD_PREFIX}${newUploadSegment()}`;
  }

  idFromUrl(segment: string): string | null {
    return SEGMENT.test(segment) ? `${S3_UPLOAD_PREFIX}${segment}` : null;
  }

  urlSegment(id: string): string {
    return id.slice(S3_UPLOAD_PREFIX.length);
  }

  async metadataOf(id: string): Promise<Record<string, string | null> | undefined> {
    const upload = await this.datastore.describe(id);
    return upload ? (upload.metadata ?? {}) : undefined;
  }

  async sniff(id: string): Promise<SniffedType> {
    const head = await this.#get(id, `bytes=0-${SNIFF_BYTES - 1}`);
    const chunks: Buffer[] = [];
    for await (const chunk of head) chunks.push(chunk as Buffer);
    return sniffBuffer(Buffer.concat(chunks));
  }

  async sha256Of(id: string, size: number): Promise<string> {
    const running = this.datastore.hashes.take(id, size);
    if (running) return running;
    const hash = createHash("sha256");
    await pipeline(await this.#get(id), hash);
    return hash.digest("hex");
  }

  async moveInto(id: string, key: string, contentType: string, options: { keepStaged?: boolean } = {}): Promise<void> {
    await this.blobs.moveObject(id, key, { contentType, keepSource: options.keepStaged });
  }

  async finishedUpload(id: string) {
    const upload = await this.datastore.getUpload(id).catch(() => undefined);
    if (!upload || upload.size === undefined || upload.offset !== upload.size) return undefined;
    return { id, size: upload.size, metadata: upload.metadata ?? {} };
  }

  /** Not listed here: a finished upload in the bucket is completed when its client asks HEAD (docs/uploads.md). */
  async list(): Promise<string[]> {
    return [];
  }

  async remove(id: string): Promise<void> {
    this.datastore.hashes.forget(id);
    await this.datastore.remove(id).catch(() => {});
    // A finished upload has no multipart upload left to abort: its objects go directly.
    await this.#deleteObjects([id, `${id}.info`, `${id}.part`]);
  }

  async forget(id: string): Promise<void> {
    this.datastore.hashes.forget(id);
    await this.#deleteObjects([`${id}.info`, `${id}.part`]);
  }

  /** Aborts multipart uploads and deletes objects under the prefix older than the lifetime. */
  async removeAbandoned(lifetimeMs = UPLOAD_LIFETIME_MS, now = new Date()): Promise<string[]> {
    const before = now.getTime() - lifetimeMs;
    const { client } = this.blobs;
    const Bucket = this.blobs.bucket;
    const removed = new Set<string>();
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    do {
      const page = await client.send(
        new ListMultipartUploadsCommand({
          Bucket,
          Prefix: S3_UPLOAD_PREFIX,
          KeyMarker: keyMarker,
          UploadIdMarker: uploadIdMarker,
        }),
      );
      for (const upload of page.Uploads ?? []) {
        if (!upload.Key || !upload.Initiated || upload.Initiated.getTime() >= before) continue;
        await client.send(new AbortMultipartUploadCommand({ Bucket, Key: upload.Key, UploadId: upload.UploadId }));
        removed.add(upload.Key);
      }
      keyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
      uploadIdMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined;
    } while (keyMarker);
    const stale: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket, Prefix: S3_UPLOAD_PREFIX, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key && object.LastModified && object.LastModified.getTime() < before) stale.push(object.Key);
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    await this.#deleteObjects(stale);
    for (const key of stale) removed.add(key.replace(/\.(info|part|sha256)$/, ""));
    return [...removed].map((id) => this.urlSegment(id));
  }

  async #get(id: string, range?: string): Promise<Readable> {
    const result = await this.blobs.client.send(
      new GetObjectCommand({ Bucket: this.blobs.bucket, Key: id, Range: range }),
    );
    return result.Body as Readable;
  }

  async #deleteObjects(keys: string[]): Promise<void> {
    for (let index = 0; index < keys.length; index += 1000) {
      const Objects = keys.slice(index, index + 1000).map((Key) => ({ Key }));
      await this.blobs.client.send(new DeleteObjectsCommand({ Bucket: this.blobs.bucket, Delete: { Objects } }));
    }
  }
}
