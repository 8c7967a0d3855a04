import { Readable } from "node:stream";
import contentDisposition from "content-disposition";
import type { FastifyReply, FastifyRequest } from "fastify";
import { NotFound } from "../../http/errors.js";
import type { BlobStore, ByteRange } from "./blob-store.js";
import { downloadName } from "./file-names.js";

export interface SendBlobOptions {
  key: string;
  /** The name the browser saves under (RFC 6266, UTF-8 names as `filename*`); made safe here (`downloadName`). */
  fileName: string;
  contentType: string;
  /** `inline` for players and previews (honoured for INLINE_SAFE types only), `attachment` for downloads. */
  disposition: "attachment" | "inline";
  /** The validator to answer instead of size and modification time (an embedded copy's: one per story revision). */
  etag?: string;
  /** Lifetime of a presigned URL when the store gives one (S3 with presigned downloads). Default 300 s. */
  presignedUrlSeconds?: number;
}

/**
 * Headers on every piece of user content: the browser must not guess a type
 * (an "image" that is really HTML) and must treat a document as a sandbox with
 * no script and no origin, whatever it is.
 */
export const USER_CONTENT_HEADERS = {
  "x-content-type-options": "nosniff",
  // A user file opened as a page loads nothing and runs nothing; media-src and
  // img-src let the browser's own image and media viewers show a safe file.
  "content-security-policy": "sandbox; default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'",
  "cross-origin-resource-policy": "same-origin",
} as const;

/**
 * Types a browser shows as passive media. Anything else asked for inline
 * (SVG and HTML above all, which carry script; PDFs, unknown types) goes out
 * as an attachment, so our origin never renders it as a document.
 */
export function inlineSafe(contentType: string): boolean {
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  return (
    ["image/jpeg", "image/png", "image/webp", "image/gif", "video/mp4", "video/webm"].includes(type) ||
    (type.startsWith("audio/") && type !== "audio/x-mpegurl" && type !== "audio/mpegurl")
  );
}

type RangeAnswer = { kind: "whole" } | { kind: "partial"; range: ByteRange } | { kind: "unsatisfiable" };

/**
 * One byte range (RFC 9110 §14): `a-b`, `a-` or `-n`. Several ranges, or a
 * header we cannot read, get the whole body (a server may ignore Range).
 */
export function parseRange(header: string | undefined, size: number): RangeAnswer {
  if (!header) return { kind: "whole" };
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return { kind: "whole" };
  const [, first, last] = match;
  if (first === "" && last === "") return { kind: "whole" };
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: "unsatisfiable" };
    return { kind: "partial", range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = Number(first);
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== "" && Number(last) < start) return { kind: "whole" };
  if (start >= size) return { kind: "unsatisfiable" };
  return { kind: "partial", range: { start, end } };
}

function etagOf(size: number, modifiedAt: Date | undefined): string {
  return `"${size.toString(16)}-${(modifiedAt?.getTime() ?? 0).toString(16)}"`;
}

/** Whether an If-Range validator still names this representation (else the whole body goes out). */
function ifRangeHolds(ifRange: string | undefined, etag: string, modifiedAt: Date | undefined): boolean {
  if (!ifRange) return true;
  if (ifRange.startsWith('"')) return ifRange === etag;
  const since = Date.parse(ifRange);
  return modifiedAt !== undefined && !Number.isNaN(since) && Math.floor(modifiedAt.getTime() / 1000) * 1000 <= since;
}

/**
 * Sends a blob: a 302 to a presigned URL where the store offers one, else a
 * stream with single-range support (206/416), validators (ETag,
 * Last-Modified, 304) and the user-content headers.
 */
export async function sendBlob(
  request: FastifyRequest,
  reply: FastifyReply,
  store: BlobStore,
  options: SendBlobOptions,
): Promise<FastifyReply> {
  const fileName = downloadName(options.fileName, options.contentType);
  const presigned = await store.presignedUrl(options.key, {
    fileName,
    contentType: options.contentType,
    expiresInSeconds: options.presignedUrlSeconds ?? 300,
  });
  if (presigned) return reply.header("cache-control", "private, no-store").redirect(presigned, 302);

  const stat = await store.stat(options.key);
  if (!stat) throw new NotFound("the file of this story is missing from the store", "blob_not_found");
  const etag = options.etag ?? etagOf(stat.size, stat.modifiedAt);
  reply.headers({
    ...USER_CONTENT_HEADERS,
    "accept-ranges": "bytes",
    "cache-control": "private, no-cache",
    etag,
    "content-type": options.contentType,
    "content-disposition": contentDisposition(fileName, {
      type: options.disposition === "inline" && inlineSafe(options.contentType) ? "inline" : "attachment",
    }),
  });
  if (stat.modifiedAt) reply.header("last-modified", stat.modifiedAt.toUTCString());

  const ifNoneMatch = request.headers["if-none-match"];
  const ifModifiedSince = request.headers["if-modified-since"];
  const notModified = ifNoneMatch
    ? ifNoneMatch.split(",").some((tag) => tag.trim() === etag || tag.trim() === "*")
    : ifModifiedSince !== undefined &&
      stat.modifiedAt !== undefined &&
      Math.floor(stat.modifiedAt.getTime() / 1000) * 1000 <= Date.parse(ifModifiedSince);
  if (notModified) return reply.status(304).send();

  const ifRange = request.headers["if-range"];
  const rangeHeader = ifRangeHolds(typeof ifRange === "string" ? ifRange : undefined, etag, stat.modifiedAt)
    ? request.headers.range
    : undefined;
  const answer = parseRange(rangeHeader, stat.size);
  if (answer.kind === "unsatisfiable") {
    reply.removeHeader("content-disposition");
    return reply
      .status(416)
      .header("content-range", `bytes */${stat.size}`)
      .header("content-type", "application/json; charset=utf-8")
      .send({ code: 416, msg: "range not satisfiable", error: "range_not_satisfiable" });
  }
  const range = answer.kind === "partial" ? answer.range : undefined;
  const length = range ? range.end - range.start + 1 : stat.size;
  reply.header("content-length", length);
  if (range) reply.status(206).header("content-range", `bytes ${range.start}-${range.end}/${stat.size}`);
  // HEAD: no bytes read. An empty stream, because Fastify's HEAD handling replaces the length of an empty body with 0.
  if (request.method === "HEAD") return reply.send(Readable.from([]));
  return reply.send(await store.get(options.key, range));
}
