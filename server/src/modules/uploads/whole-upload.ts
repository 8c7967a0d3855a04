import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import { EXPOSED_HEADERS, Metadata, TUS_RESUMABLE } from "@tus/utils";
import type { FastifyReply, FastifyRequest } from "fastify";
import { uploadBody } from "../../http/body-deadline.js";
import { ok } from "../../http/envelope.js";
import { Invalid } from "../../http/errors.js";
import { actorOf } from "../auth/actor.js";
import type { BlobStore } from "../blobs/blob-store.js";
import { bytesInMemory } from "../ingest/ingest-source.js";
import { requireUtf8Metadata, toErrorEnvelope } from "./tus-server.js";
import type { UploadStaging } from "./upload-staging.js";
import type { UploadsService } from "./uploads.service.js";

/** A creation-with-upload POST that this path takes: its file's size and its parsed Upload-Metadata. */
export interface WholeUploadRequest {
  size: number;
  metadata: Record<string, string | null>;
}

/** Headers whose presence means a tus feature this path does not speak: such a POST goes to tus. */
const TUS_ONLY_HEADERS = ["upload-defer-length", "upload-concat", "x-http-method-override", "transfer-encoding"];

/**
 * A tus creation-with-upload POST that carries its whole file (Upload-Length equal to Content-Length, no
 * offset but 0, the tus body type), of at most `limit` bytes, with well-formed metadata; undefined for
 * anything else, which goes to tus as before (and tus answers it, refusals included).
 */
export function wholeUploadOf(headers: IncomingHttpHeaders, limit: number): WholeUploadRequest | undefined {
  if (limit <= 0 || headers["tus-resumable"] !== TUS_RESUMABLE) return undefined;
  if (headers["content-type"] !== "application/offset+octet-stream") return undefined;
  if (TUS_ONLY_HEADERS.some((name) => headers[name] !== undefined)) return undefined;
  const offset = single(headers["upload-offset"]);
  if (offset !== undefined && offset !== "0") return undefined;
  const length = single(headers["upload-length"]);
  if (length === undefined || !/^[1-9][0-9]{0,11}$/.test(length) || length !== headers["content-length"])
    return undefined;
  const size = Number(length);
  if (size > limit) return undefined;
  const header = headers["upload-metadata"];
  if (header === undefined) return { size, metadata: {} };
  if (typeof header !== "string") return undefined;
  try {
    return { size, metadata: Metadata.parse(header) };
  } catch {
    return undefined;
  }
}

/** A header sent once (a repeated one is tus's to refuse). */
function single(value: string | string[] | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** The body ended (its connection closed or cut) before its Content-Length bytes came. */
class BodyCutShort extends Invalid {
  constructor() {
    super("the request ended before its Upload-Length bytes came; nothing was stored", "upload_cut_short");
  }
}

/**
 * The request's body, exactly `size` bytes (its Content-Length, which Node's parser holds it to), in one buffer.
 * Memory is taken as the bytes come, not at the declared size: a slow client holds only what it has sent.
 */
async function readBody(raw: IncomingMessage, size: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let received = 0;
  try {
    for await (const chunk of raw as AsyncIterable<Buffer>) {
      received += chunk.length;
      if (received > size) throw new BodyCutShort();
      chunks.push(chunk);
    }
  } catch {
    throw new BodyCutShort();
  }
  if (received !== size) throw new BodyCutShort();
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
}

/**
 * Stores a small file sent whole in one creation-with-upload POST without tus's staging: the same checks as
 * tus's creation (`checkNewUpload`: account, write access, quota, UTF-8 metadata) before a byte is read, the
 * body read into memory (an upload's minimum rate applies, `uploadBody`), then the ingest command (content
 * check on the first bytes, SHA-256, the bytes written straight into the blob store, the story in one
 * transaction) and tus's answer to such a POST: 201, Location, Upload-Offset, the outcome. Nothing is written
 * before the body is whole; a request cut short stores nothing, and the client sends it again. The Location's
 * upload has no staged state: HEAD answers it complete from its ingest key, as for any completed tus upload.
 */
export async function storeWholeUpload(
  request: FastifyRequest,
  reply: FastifyReply,
  whole: WholeUploadRequest,
  deps: {
    owner: string;
    service: Pick<UploadsService, "checkNewUpload" | "completeWhole">;
    staging: Pick<UploadStaging, "newId" | "urlSegment">;
    blobs: BlobStore;
    /** The tus endpoint's path (API prefix included): the Location is this plus the upload's id. */
    tusPath: string;
  },
): Promise<void> {
  const raw = reply.raw;
  // Headers set by earlier hooks (security headers) travel with the hijacked response, as tus's do.
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) raw.setHeader(name, value);
  }
  raw.setHeader("Tus-Resumable", TUS_RESUMABLE);
  raw.setHeader("Access-Control-Expose-Headers", EXPOSED_HEADERS);
  raw.setHeader("Content-Type", "application/json; charset=utf-8");
  reply.hijack();
  let status = 201;
  let body: string;
  try {
    requireUtf8Metadata(single(request.headers["upload-metadata"]) ?? null);
    const { metadata, checked } = await deps.service.checkNewUpload(whole.metadata, deps.owner, whole.size);
    uploadBody(request.raw);
    const bytes = await readBody(request.raw, whole.size);
    const segment = deps.staging.urlSegment(deps.staging.newId());
    // The story's record names the caller's actor when the caller owns the upload: the request is then known
    // recorded (story.create), and the operation log's floor adds no `http.post` row beside it.
    const actor = request.currentUser?.id === deps.owner ? actorOf(request) : undefined;
    const outcome = await deps.service.completeWhole(
      segment,
      metadata,
      bytesInMemory(bytes, deps.blobs),
      checked,
      actor,
    );
    raw.setHeader("Upload-Offset", String(whole.size));
    raw.setHeader("Location", `${deps.tusPath}/${segment}`);
    body = JSON.stringify(ok(outcome));
  } catch (error) {
    ({ status_code: status, body } = toErrorEnvelope(error, request.log));
    // A body cut short: what is left of the connection is closed, as tus does.
    if (error instanceof BodyCutShort) raw.setHeader("Connection", "close");
  }
  // Cut by the body's minimum rate (answered 408 already), or the client is gone: nothing to answer.
  if (raw.headersSent || raw.destroyed) return;
  raw.setHeader("Content-Length", Buffer.byteLength(body));
  raw.writeHead(status);
  raw.end(body);
}
