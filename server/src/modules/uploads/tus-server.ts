import type { IncomingMessage } from "node:http";
import { Server, type ServerOptions } from "@tus/server";
import type { Lock, Locker } from "@tus/utils";
import type { FastifyBaseLogger } from "fastify";
import { ok } from "../../http/envelope.js";
import { AppError, Invalid, type MessageParams, messageForStatus, statusCodes } from "../../http/errors.js";
import { storageError } from "../blobs/storage-errors.js";
import type { CheckedUpload } from "../ingest/ingest.service.js";
import type { DatabaseLocker } from "./upload-locker.js";
import type { UploadStaging } from "./upload-staging.js";
import type { UploadClient, UploadsService } from "./uploads.service.js";

type TusRequest = Parameters<NonNullable<ServerOptions["onUploadCreate"]>>[0];

/** Who sent a request, set by the route after the auth hook, read by the tus hooks. */
export const uploadOwners = new WeakMap<IncomingMessage, string>();
/** The request's address (as Fastify sees it: behind a trusted proxy, the client's) and browser, for the completion. */
export const uploadClients = new WeakMap<IncomingMessage, UploadClient>();

function ownerOf(request: TusRequest): string {
  const raw = request.runtime?.node?.req as IncomingMessage | undefined;
  const owner = raw ? uploadOwners.get(raw) : undefined;
  if (!owner) throw new Error("an upload request reached tus without a signed-in user");
  return owner;
}

/**
 * A creation-with-upload POST's lock, kept from its bytes to its completion:
 * tus lets go of it after the write and the completion would take it again (a
 * second row written and deleted); instead it passes here, by request, to
 * onUploadFinish, and the route lets go of it when the request is answered.
 */
const heldThroughCompletion = new WeakMap<IncomingMessage, Lock>();

/** What a POST's creation checked (the account's write access, the quota), for its completion in the same request. */
const checkedAtCreation = new WeakMap<IncomingMessage, CheckedUpload>();

/** The POST's locker: its lock, when tus lets go, stays held for the completion (heldThroughCompletion). */
function postLocker(locker: DatabaseLocker, raw: IncomingMessage): Locker {
  return {
    newLock(id) {
      const lock = locker.newLock(id);
      return {
        lock: (stopSignal, requestRelease) => lock.lock(stopSignal, requestRelease),
        unlock: async () => void heldThroughCompletion.set(raw, lock),
      };
    },
  };
}

/** Lets go of a POST's lock still held for its completion (none was made, or it failed); after tus answered. */
export async function releaseHeldLock(raw: IncomingMessage): Promise<void> {
  const lock = heldThroughCompletion.get(raw);
  heldThroughCompletion.delete(raw);
  await lock?.unlock();
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Upload-Metadata values are base64 of UTF-8 text; tus decodes them leniently (U+FFFD), so they are checked here. */
export function requireUtf8Metadata(header: string | null): void {
  for (const pair of header?.split(",") ?? []) {
    const [key = "", value] = pair.trim().split(" ");
    try {
      if (value) utf8.decode(Buffer.from(value, "base64"));
    } catch {
      throw new Invalid(`Upload-Metadata ${key}: not valid UTF-8`, "invalid_utf8");
    }
  }
}

/** tus errors are `{ status_code, body }` with a text body; ours are AppErrors. Both leave as the API's error envelope. */
export function toErrorEnvelope(caught: unknown, log: FastifyBaseLogger): { status_code: number; body: string } {
  // An unreachable bucket (uploads in S3) is a 503 the client retries, not a 500.
  const error = storageError(caught);
  let status = 500;
  let code = "server_error";
  let msg = messageForStatus(500);
  let coded: { msgCode?: string; msgParams?: MessageParams } = {};
  if (error instanceof AppError) {
    ({ status, code } = error);
    msg = error.message;
    if (error.msgCode) coded = { msgCode: error.msgCode, msgParams: error.msgParams ?? {} };
  } else if (error && typeof error === "object" && "status_code" in error && typeof error.status_code === "number") {
    status = error.status_code;
    code = statusCodes[status] ?? "upload_error";
    const body = "body" in error && typeof error.body === "string" ? error.body.trim() : "";
    msg = status < 500 && body ? body : messageForStatus(status);
    if (status >= 500) log.error({ err: error }, "upload request failed");
  } else {
    log.error({ err: error }, "upload request failed");
  }
  return { status_code: status, body: JSON.stringify({ code: status, msg, error: code, ...coded }) };
}

/** A tus server whose every error answer is the API's envelope, as JSON; tus writes some (412, 400 on headers) as text. */
class EnvelopeTusServer extends Server {
  constructor(
    options: ServerOptions & { datastore: ConstructorParameters<typeof Server>[0]["datastore"] },
    private readonly log: FastifyBaseLogger,
  ) {
    super(options);
  }

  override async write(...[context, headers, status, body = ""]: Parameters<Server["write"]>) {
    if (status < 400) return super.write(context, headers, status, body);
    headers.set("Content-Type", "application/json; charset=utf-8");
    const enveloped = isEnvelope(body) ? body : toErrorEnvelope({ status_code: status, body }, this.log).body;
    return super.write(context, headers, status, enveloped);
  }
}

function isEnvelope(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as { code?: unknown; msg?: unknown };
    return typeof parsed.code === "number" && typeof parsed.msg === "string";
  } catch {
    return false;
  }
}

/**
 * The tus 1.0 server (creation, creation-with-upload, creation-defer-length,
 * termination) on the upload staging (a directory or the S3 bucket), with
 * its locks in the database: any API node can serve any request of an upload.
 */
export function buildTusServer(deps: {
  path: string;
  maxBytes: number;
  staging: UploadStaging;
  locker: DatabaseLocker;
  service: UploadsService;
  log: FastifyBaseLogger;
}): Server {
  const { staging, locker, service, log } = deps;
  // A test hook (only under NODE_ENV=test): the process dies right after an upload's last byte is written and
  // before its completion, as a kill -9 at the worst moment would (uploads-crash.test.ts).
  const crashAfterLastByte = process.env.NODE_ENV === "test" && process.env.DAMS_TEST_CRASH_AFTER_UPLOAD_BYTES === "1";
  return new EnvelopeTusServer(
    {
      path: deps.path,
      // Same-origin only: no Access-Control-Allow-Origin (tus answers * by default).
      allowedOrigins: [],
      datastore: staging.datastore,
      locker: (request) => {
        const raw = request.runtime?.node?.req as IncomingMessage | undefined;
        return request.method === "POST" && raw ? postLocker(locker, raw) : locker;
      },
      maxSize: deps.maxBytes,
      namingFunction: () => staging.newId(),
      // Relative Locations: the upload's URL holds only the segment, whatever the store calls it.
      generateUrl: (_request, { path, id }) => `${path}/${staging.urlSegment(id)}`,
      getFileIdFromRequest: (_request, segment) => (segment ? (staging.idFromUrl(segment) ?? undefined) : undefined),
      // Stop a finished upload from being deleted while it is being moved into the blob store.
      disableTerminationForFinishedUploads: true,
      async onUploadCreate(request, upload) {
        requireUtf8Metadata(request.headers.get("upload-metadata"));
        // The owner (and the library checked) are recorded server-side; whatever the client put under those keys is dropped.
        const { metadata, checked } = await service.checkNewUpload(
          upload.metadata ?? {},
          ownerOf(request),
          upload.size,
        );
        const raw = request.runtime?.node?.req as IncomingMessage | undefined;
        if (raw && checked) checkedAtCreation.set(raw, checked);
        return { metadata };
      },
      async onUploadFinish(request, upload) {
        if (crashAfterLastByte) process.kill(process.pid, "SIGKILL");
        // Hold the upload's lock while it is moved, so a DELETE, a stray PATCH or a HEAD's completion waits
        // (a POST's is still held from its write).
        const raw = request.runtime?.node?.req as IncomingMessage | undefined;
        let lock = raw && heldThroughCompletion.get(raw);
        if (raw) heldThroughCompletion.delete(raw);
        if (!lock) {
          lock = locker.newLock(upload.id);
          await lock.lock(new AbortController().signal, () => {});
        }
        try {
          const outcome = await service.complete(
            { id: upload.id, size: upload.size ?? upload.offset, metadata: upload.metadata ?? {} },
            raw ? uploadClients.get(raw) : undefined,
            // A POST's upload is new (its id made by this request): no earlier completion to look for, and what
            // its creation checked a moment ago is not checked again.
            {
              createdByThisRequest: request.method === "POST",
              checked: raw && request.method === "POST" ? checkedAtCreation.get(raw) : undefined,
            },
          );
          return {
            // tus says 204, but clients read a body from any 2xx; POST must stay 201 (it carries Location).
            status_code: request.method === "POST" ? 201 : 200,
            headers: { "Content-Type": "application/json; charset=utf-8" },
            body: JSON.stringify(ok(outcome)),
          };
        } finally {
          await lock.unlock();
        }
      },
      onResponseError(_request, error) {
        return toErrorEnvelope(error, log);
      },
    },
    log,
  );
}
