import type { FastifyReply, FastifyRequest } from "fastify";
import { Invalid } from "../../http/errors.js";
import { actorOf } from "../auth/actor.js";
import { sendBlob } from "../blobs/send-blob.js";
import { sendZip } from "../blobs/send-zip.js";
import type { DownloadRequest, StoryDownloads } from "./story-downloads.service.js";

/**
 * Whether a request reads the file from its first byte. A single range that
 * starts later (`bytes=500-`, `bytes=-500`) is a player seeking; anything
 * else (no range, `bytes=0-…`, several ranges, which get the whole file) is
 * a download starting.
 */
function fromFirstByte(request: FastifyRequest): boolean {
  const single = /^bytes=(\d*)-(\d*)$/.exec(request.headers.range?.trim() ?? "");
  if (!single) return true;
  const [, first, last] = single;
  return first === "" ? last === "" : Number(first) === 0;
}

/**
 * Sends a story's file through `sendBlob` (single ranges, validators, the
 * user-content headers, a presigned redirect on S3). Attachments are recorded
 * as story actions; inline files (thumbnails, covers, proxies shown in the
 * page) only when they are the original. Of ranged requests only the one
 * from byte 0 counts, and HEAD not at all.
 */
export async function sendStoryFile(
  downloads: StoryDownloads,
  request: FastifyRequest,
  reply: FastifyReply,
  target: DownloadRequest,
  disposition: "attachment" | "inline",
) {
  const actor = actorOf(request);
  const resolved = await downloads.resolveOutgoing(target, { hidden: await downloads.hiddenFor?.(actor) });
  const wholeDownload = disposition === "attachment" || (target.rendition ?? "original") === "original";
  if (wholeDownload && request.method !== "HEAD" && fromFirstByte(request)) {
    await downloads.record(actor, [{ request: target, resolved }]);
  }
  return sendBlob(request, reply, downloads.blobs, {
    key: resolved.blobKey,
    fileName: resolved.fileName,
    contentType: resolved.contentType,
    disposition,
    etag: resolved.etag,
  });
}

/** Several stories of one library as one zip through `sendZip`; each story's download is recorded. */
export async function sendStoriesZip(
  downloads: StoryDownloads,
  request: FastifyRequest,
  reply: FastifyReply,
  target: { libraryId: string; storyIds: string[]; rendition?: string; versionNo?: number },
) {
  if (target.versionNo !== undefined) throw new Invalid("versionNo: give it for one story only");
  const hidden = await downloads.hiddenFor?.(actorOf(request));
  const files = [];
  for (const storyId of target.storyIds) {
    const one = { libraryId: target.libraryId, storyId, rendition: target.rendition };
    files.push({ request: one, resolved: await downloads.resolveOutgoing(one, { hidden }) });
  }
  if (request.method !== "HEAD") await downloads.record(actorOf(request), files);
  return sendZip(
    reply,
    downloads.blobs,
    files.map(({ resolved }) => ({
      key: resolved.blobKey,
      name: resolved.fileName,
      contentType: resolved.contentType,
    })),
    `${target.libraryId}-${files.length}-stories.zip`,
  );
}
