import type { ReadStream } from "node:fs";
import { Readable } from "node:stream";
import { S3Store } from "@tus/s3-store";
import { isNotFound } from "../blobs/s3-blob-store.js";
import { mapStorageErrors } from "../blobs/storage-errors.js";
import { RunningHashes } from "./running-hashes.js";

type Metadata = Parameters<S3Store["uploadPart"]>[0];

/**
 * The request's bytes gathered into one part in memory, copied once as they
 * arrive (s3-store writes each part to a temporary file and reads it back).
 */
class PartBuffer {
  #bytes: Buffer;
  size = 0;

  constructor(capacity: number) {
    this.#bytes = Buffer.allocUnsafe(capacity);
  }

  get room(): number {
    return this.#bytes.length - this.size;
  }

  /** Copies as much of `chunk` as fits; returns what did not. */
  fill(chunk: Buffer): Buffer {
    const taken = Math.min(chunk.length, this.room);
    chunk.copy(this.#bytes, this.size, 0, taken);
    this.size += taken;
    return chunk.subarray(taken);
  }

  bytes(): Buffer {
    return this.#bytes.subarray(0, this.size);
  }
}

/**
 * `@tus/s3-store` with each part gathered in memory and sent as a Buffer
 * (at most `maxConcurrentPartUploads` parts in flight, plus the one filling
 * per write), and the bytes hashed as they arrive by node:crypto in the node
 * that takes the write (RunningHashes): the hash continues while the
 * upload's writes land on that node from its first byte; otherwise the
 * completion reads the upload back (docs/decisions.md).
 */
export class HashingS3Store extends S3Store {
  readonly hashes = new RunningHashes();

  constructor(options: ConstructorParameters<typeof S3Store>[0]) {
    super(options);
    mapStorageErrors(this.client);
    // The SDK signs a Buffer body with its SHA-256, a second pass over every
    // byte; s3-store's file streams were already sent unsigned (the parts'
    // integrity is TCP's, and the upload's SHA-256 is taken as it arrives).
    this.client.middlewareStack.add(
      (next) => (args) => {
        const request = args.request as { headers?: Record<string, string> };
        if (request.headers) request.headers["x-amz-content-sha256"] = "UNSIGNED-PAYLOAD";
        return next(args);
      },
      { step: "build", name: "unsignedPayload" },
    );
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const { source, settle } = this.hashes.tap(id, offset, readable);
    const newOffset = await super.write(source, id, offset);
    settle(newOffset);
    return newOffset;
  }

  override async remove(id: string): Promise<void> {
    this.hashes.forget(id);
    await super.remove(id);
    // s3-store leaves the incomplete part of an unfinished upload behind.
    await this.deleteIncompletePart(id).catch(() => {});
  }

  /** The upload's description, or undefined when there is none. */
  async describe(id: string) {
    try {
      return (await this.getMetadata(id)).file;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /**
   * Splits the write into parts of the upload's part size as s3-store does (a
   * last one under 5 MiB, unless it ends the upload, is kept as the
   * incomplete part for the next write), without the temporary files.
   */
  protected override async uploadParts(
    metadata: Metadata,
    readStream: Readable,
    currentPartNumber: number,
    offset: number,
  ): Promise<number> {
    const partSize = this.calcOptimalPartSize(metadata.file.size);
    const sending: Promise<void>[] = [];
    let bytesUploaded = 0;
    let failed: unknown;
    const send = async (part: PartBuffer) => {
      const permit = await this.partUploadSemaphore.acquire();
      const partNumber = currentPartNumber++;
      offset += part.size;
      const isFinalPart = metadata.file.size === offset;
      const sent = (async () => {
        try {
          if (part.size >= this.minPartSize || isFinalPart) await this.#sendPart(metadata, part.bytes(), partNumber);
          else await this.#putIncompletePart(metadata.file.id, part.bytes());
          bytesUploaded += part.size;
        } catch (error) {
          failed ??= error;
          throw error;
        } finally {
          await permit.release().catch(() => {});
        }
      })();
      sent.catch(() => {});
      sending.push(sent);
    };
    try {
      let part: PartBuffer | undefined;
      for await (const data of readStream) {
        if (failed) break;
        let chunk = data as Buffer;
        while (chunk.length > 0) {
          part ??= new PartBuffer(this.#capacity(metadata, offset, partSize));
          chunk = part.fill(chunk);
          if (part.room === 0) {
            await send(part);
            part = undefined;
          }
        }
      }
      if (part && !failed) await send(part);
    } catch (error) {
      sending.push(Promise.reject(error));
    } finally {
      await Promise.allSettled(sending);
    }
    await Promise.all(sending);
    return bytesUploaded;
  }

  /** A part's room: the part size, or what is left of an upload that ends before it. */
  #capacity(metadata: Metadata, offset: number, partSize: number): number {
    const left = metadata.file.size === undefined ? partSize : metadata.file.size - offset;
    return left > 0 ? Math.min(partSize, left) : partSize;
  }

  /** The incomplete part, in memory: under 5 MiB. */
  protected override async downloadIncompletePart(id: string) {
    const body = await this.getIncompletePart(id);
    if (!body) return undefined;
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    // s3-store's type says a file stream; it only pipes what this returns.
    const createReader = () => Readable.from([bytes]) as unknown as ReadStream;
    return { size: bytes.length, path: "", createReader };
  }

  async #sendPart(metadata: Metadata, bytes: Buffer, partNumber: number): Promise<void> {
    await this.client.uploadPart({
      Bucket: this.bucket,
      Key: metadata.file.id,
      UploadId: metadata["upload-id"],
      PartNumber: partNumber,
      Body: bytes,
    });
  }

  async #putIncompletePart(id: string, bytes: Buffer): Promise<void> {
    await this.client.putObject({
      Bucket: this.bucket,
      Key: this.partKey(id, true),
      Body: bytes,
      Tagging: this.useCompleteTag("false"),
    });
  }
}
