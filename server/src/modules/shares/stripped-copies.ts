import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import contentDisposition from "content-disposition";
import type { FastifyReply } from "fastify";
import type { MediaTools } from "../../media/index.js";
import type { BlobStore } from "../blobs/blob-store.js";
import { downloadName } from "../blobs/file-names.js";
import { USER_CONTENT_HEADERS } from "../blobs/send-blob.js";

/** A copy of a blob on the local disk, removed by `dispose` once it has been sent. */
export interface StrippedCopy {
  file: string;
  size: number;
  dispose: () => Promise<void>;
}

/**
 * Copies of originals (and preset renditions) without GPS, location tags and
 * camera serial numbers, for share visitors when the owner did not choose to
 * keep them. Made per download in the work dir and removed once sent, never
 * cached: no second copy of a photo outlives the answer, and the stored
 * original is only ever read.
 */
export class StrippedCopies {
  constructor(
    private readonly deps: {
      blobs: BlobStore;
      media: Pick<MediaTools, "stripPrivateMetadata">;
      workDir: string;
    },
  ) {}

  /** `fileName` gives the copy its extension (exiftool reads some formats by it). */
  async make(blobKey: string, fileName: string): Promise<StrippedCopy> {
    await fs.mkdir(this.deps.workDir, { recursive: true });
    const dir = await fs.mkdtemp(path.join(this.deps.workDir, "strip-"));
    const dispose = () => fs.rm(dir, { recursive: true, force: true });
    try {
      const extension = path
        .extname(fileName)
        .replace(/[^.A-Za-z0-9]/g, "")
        .slice(0, 10);
      const out = path.join(dir, `copy${extension}`);
      await this.deps.blobs.withLocalFile(blobKey, (file) => this.deps.media.stripPrivateMetadata(file, out));
      const { size } = await fs.stat(out);
      return { file: out, size, dispose };
    } catch (error) {
      await dispose();
      throw error;
    }
  }
}

/** Sends a stripped copy as an attachment (whole: a copy made per answer has no stable ranges) and removes it after. */
export function sendStrippedCopy(
  reply: FastifyReply,
  copy: StrippedCopy,
  file: { fileName: string; contentType: string },
): FastifyReply {
  reply.raw.once("close", () => void copy.dispose());
  return reply
    .headers({
      ...USER_CONTENT_HEADERS,
      "cache-control": "private, no-store",
      "content-type": file.contentType,
      "content-length": copy.size,
      "content-disposition": contentDisposition(downloadName(file.fileName, file.contentType), { type: "attachment" }),
    })
    .send(createReadStream(copy.file));
}
