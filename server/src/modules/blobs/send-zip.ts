import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import contentDisposition from "content-disposition";
import type { FastifyReply } from "fastify";
import yazl from "yazl";
import { NotFound } from "../../http/errors.js";
import type { BlobStore } from "./blob-store.js";
import { downloadName } from "./file-names.js";
import { USER_CONTENT_HEADERS } from "./send-blob.js";

export interface ZipEntry {
  key: string;
  /** The name inside the zip; made safe (`downloadName`, by the content type) and unique here. */
  name: string;
  contentType: string;
  /** A local file to send instead of the blob (a copy made for this answer, e.g. without location tags). */
  file?: string;
}

/** `a.jpg`, `a (2).jpg`, `a (3).jpg`: two stories may well share a file name. */
function uniqueNames(entries: ZipEntry[]): string[] {
  const seen = new Set<string>();
  return entries.map(({ name, contentType }) => {
    const safe = downloadName(name, contentType);
    const dot = safe.lastIndexOf(".");
    const [stem, extension] = dot > 0 ? [safe.slice(0, dot), safe.slice(dot)] : [safe, ""];
    let candidate = safe;
    for (let n = 2; seen.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${extension}`;
    seen.add(candidate.toLowerCase());
    return candidate;
  });
}

/**
 * Streams several blobs as one zip (stored, not deflated: photos and video
 * are compressed already, and storing keeps the CPU free). Blobs are opened
 * one after another as the zip is written, so a thousand stories hold one
 * open stream, not a thousand. Every key is checked first: a missing blob is
 * a 404 before the first byte, not a truncated zip.
 */
export async function sendZip(
  reply: FastifyReply,
  store: BlobStore,
  entries: ZipEntry[],
  zipName: string,
): Promise<FastifyReply> {
  const sizes: number[] = [];
  for (const entry of entries) {
    const stat = entry.file ? await fs.stat(entry.file) : await store.stat(entry.key);
    if (!stat) throw new NotFound(`the file of "${entry.name}" is missing from the store`, "blob_not_found");
    sizes.push(stat.size);
  }
  const zip = new yazl.ZipFile();
  const names = uniqueNames(entries);
  entries.forEach((entry, index) => {
    zip.addReadStreamLazy(names[index]!, { compress: false, size: sizes[index]! }, (callback) => {
      if (entry.file) {
        callback(null, createReadStream(entry.file));
        return;
      }
      store.get(entry.key).then(
        (stream) => callback(null, stream),
        (error: unknown) => callback(error, undefined as never),
      );
    });
  });
  zip.on("error", (error: unknown) => {
    reply.log.error({ err: error }, "a zip download failed midway");
    (zip.outputStream as NodeJS.ReadableStream & { destroy(error?: unknown): void }).destroy(error);
  });
  // Every size is known and nothing is deflated, so yazl can tell the final length: browsers show real progress.
  const totalSize = await new Promise<number>((resolve) =>
    zip.end({} as yazl.EndOptions, (size?: number) => resolve(size ?? -1)),
  );
  if (totalSize >= 0) reply.header("content-length", totalSize);
  return reply
    .headers({
      ...USER_CONTENT_HEADERS,
      "content-type": "application/zip",
      "content-disposition": contentDisposition(downloadName(zipName, "application/zip"), { type: "attachment" }),
      "cache-control": "private, no-store",
    })
    .send(zip.outputStream);
}
