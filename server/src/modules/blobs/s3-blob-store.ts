import { randomUUID } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { PassThrough, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
  UploadPartCopyCommand,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import contentDisposition from "content-disposition";
import type { StorageConfig } from "../../config.js";
import { NotFound } from "../../http/errors.js";
import { assertValidBlobKey } from "./blob-keys.js";
import type { BlobStore, ByteRange, StoredBlob } from "./blob-store.js";
import { mapStorageErrors } from "./storage-errors.js";

export type S3StorageConfig = Extract<StorageConfig, { kind: "s3" }>;

/** The S3 client's settings for a storage configuration (the blob store's and the upload store's clients alike). */
export function s3ClientConfig(config: S3StorageConfig) {
  return {
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    credentials: config.credentials,
    // Checksums only where S3 requires them: several S3-compatible servers reject the newer trailers.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  } as const;
}

/** Multipart part size: 16 MiB parts allow objects up to ~156 GiB within S3's 10,000 parts; 4 in flight bound the memory. */
const PART_SIZE = 16 * 1024 * 1024;

/** CopyObject copies objects up to 5 GiB; larger ones are copied part by part (UploadPartCopy). */
const COPY_OBJECT_LIMIT = 5 * 1024 ** 3;
const COPY_PART_SIZE = 512 * 1024 * 1024;

/** How large objects are copied; tests make the limits small to exercise the multipart copy. */
export interface CopyTuning {
  copyObjectLimit: number;
  copyPartSize: number;
}

/** An S3 answer that the object, or the multipart upload, is not there. */
export function isNotFound(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  return (
    error.name === "NoSuchKey" ||
    error.name === "NoSuchUpload" ||
    error.name === "NotFound" ||
    error.$metadata.httpStatusCode === 404
  );
}

/**
 * Blobs as objects in an S3-compatible bucket (AWS, MinIO, Ceph RGW, Garage).
 * Large bodies go up as multipart uploads (lib-storage), so memory stays at a
 * few parts whatever the size. S3 writes are atomic per object: a reader sees
 * the old object, the new one, or none, never half of one.
 */
export class S3BlobStore implements BlobStore {
  readonly kind = "s3" as const;
  readonly client: S3Client;
  readonly #bucket: string;
  readonly #scratch: string;
  readonly #presigned: boolean;
  readonly #copy: CopyTuning;

  constructor(config: S3StorageConfig, copy: Partial<CopyTuning> = {}) {
    this.client = new S3Client(s3ClientConfig(config));
    mapStorageErrors(this.client);
    this.#bucket = config.bucket;
    this.#scratch = config.scratchDirectory;
    this.#presigned = config.presignedDownloads;
    this.#copy = { copyObjectLimit: COPY_OBJECT_LIMIT, copyPartSize: COPY_PART_SIZE, ...copy };
  }

  /** The bucket, for parts of the server that keep other objects in it (tus uploads in progress). */
  get bucket(): string {
    return this.#bucket;
  }

  /**
   * Moves an object of the same bucket (a finished tus upload) to `key`,
   * inside the object store: a server-side copy (by parts past 5 GiB), then
   * the source is deleted. The copy appears whole or not at all.
   */
  /** A server-side copy of `sourceKey` to `key`; with `keepSource` the source stays (else it is deleted: a move). */
  async moveObject(
    sourceKey: string,
    key: string,
    options: { contentType?: string; keepSource?: boolean } = {},
  ): Promise<StoredBlob> {
    assertValidBlobKey(sourceKey);
    assertValidBlobKey(key);
    const source = await this.stat(sourceKey);
    if (!source) throw new NotFound(`object ${sourceKey} does not exist`, "blob_not_found");
    const copySource = `${this.#bucket}/${sourceKey.split("/").map(encodeURIComponent).join("/")}`;
    if (source.size <= this.#copy.copyObjectLimit) {
      await this.client.send(
        new CopyObjectCommand({
          Bucket: this.#bucket,
          Key: key,
          CopySource: copySource,
          MetadataDirective: "REPLACE",
          ContentType: options.contentType,
        }),
      );
    } else {
      await this.#copyByParts(copySource, key, source.size, options.contentType);
    }
    if (!options.keepSource) await this.client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: sourceKey }));
    return { key, size: source.size };
  }

  async #copyByParts(copySource: string, key: string, size: number, contentType: string | undefined): Promise<void> {
    const { UploadId } = await this.client.send(
      new CreateMultipartUploadCommand({ Bucket: this.#bucket, Key: key, ContentType: contentType }),
    );
    try {
      const ranges: { partNumber: number; first: number; last: number }[] = [];
      for (let first = 0, partNumber = 1; first < size; first += this.#copy.copyPartSize, partNumber++) {
        ranges.push({ partNumber, first, last: Math.min(size, first + this.#copy.copyPartSize) - 1 });
      }
      const parts: { PartNumber: number; ETag?: string }[] = [];
      // Four parts in flight, as for uploads.
      for (let index = 0; index < ranges.length; index += 4) {
        const batch = await Promise.all(
          ranges.slice(index, index + 4).map(async ({ partNumber, first, last }) => {
            const copied = await this.client.send(
              new UploadPartCopyCommand({
                Bucket: this.#bucket,
                Key: key,
                UploadId,
                PartNumber: partNumber,
                CopySource: copySource,
                CopySourceRange: `bytes=${first}-${last}`,
              }),
            );
            return { PartNumber: partNumber, ETag: copied.CopyPartResult?.ETag };
          }),
        );
        parts.push(...batch);
      }
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.#bucket,
          Key: key,
          UploadId,
          MultipartUpload: { Parts: parts },
        }),
      );
    } catch (error) {
      await this.client
        .send(new AbortMultipartUploadCommand({ Bucket: this.#bucket, Key: key, UploadId }))
        .catch(() => {});
      throw error;
    }
  }

  async put(key: string, body: Readable, options?: { contentType?: string }): Promise<StoredBlob> {
    assertValidBlobKey(key);
    let size = 0;
    const counted = new PassThrough();
    counted.on("data", (chunk: Buffer) => {
      size += chunk.length;
    });
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.#bucket, Key: key, Body: counted, ContentType: options?.contentType },
      partSize: PART_SIZE,
      queueSize: 4,
    });
    await Promise.all([pipeline(body, counted), upload.done()]);
    return { key, size };
  }

  async putFile(key: string, file: string, options?: { contentType?: string }): Promise<StoredBlob> {
    const stored = await this.put(key, fs.createReadStream(file), options);
    await fsp.rm(file, { force: true });
    return stored;
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    assertValidBlobKey(key);
    try {
      const result = await this.client.send(
        new GetObjectCommand({
          Bucket: this.#bucket,
          Key: key,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      return result.Body as Readable;
    } catch (error) {
      if (isNotFound(error)) throw new NotFound(`blob ${key} does not exist`, "blob_not_found");
      throw error;
    }
  }

  async stat(key: string): Promise<{ size: number; modifiedAt?: Date } | null> {
    assertValidBlobKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: key }));
      return { size: head.ContentLength ?? 0, modifiedAt: head.LastModified };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidBlobKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: key }));
  }

  async *list(prefix: string): AsyncIterable<string> {
    let continuationToken: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.#bucket, Prefix: prefix, ContinuationToken: continuationToken }),
      );
      for (const object of page.Contents ?? []) if (object.Key) yield object.Key;
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuationToken);
  }

  async withLocalFile<T>(key: string, work: (file: string) => Promise<T>): Promise<T> {
    await fsp.mkdir(this.#scratch, { recursive: true });
    const file = path.join(this.#scratch, `${randomUUID()}${path.extname(key)}`);
    try {
      await pipeline(await this.get(key), fs.createWriteStream(file, { flags: "wx" }));
      return await work(file);
    } finally {
      await fsp.rm(file, { force: true });
    }
  }

  async presignedUrl(
    key: string,
    options: { fileName: string; contentType: string; expiresInSeconds: number },
  ): Promise<string | null> {
    if (!this.#presigned) return null;
    assertValidBlobKey(key);
    const command = new GetObjectCommand({
      Bucket: this.#bucket,
      Key: key,
      // The bucket answers on another origin, so inline would be harmless there; attachment is still what a download wants.
      ResponseContentDisposition: contentDisposition(options.fileName, { type: "attachment" }),
      ResponseContentType: options.contentType,
    });
    return getSignedUrl(this.client, command, { expiresIn: options.expiresInSeconds });
  }
}
