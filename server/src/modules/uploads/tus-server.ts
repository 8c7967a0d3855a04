import type { IncomingMessage } from "node:http";
import { MemoryLocker, Server, type ServerOptions } from "@tus/server";
import type { FastifyBaseLogger } from "fastify";
import { ok } from "../../http/envelope.js";
import { AppError, type MessageParams, messageForStatus, statusCodes } from "../../http/errors.js";
import type { HashingFileStore } from "./hashing-file-store.js";
import { OWNER_METADATA_KEY, type UploadsService } from "./uploads.service.js";

type TusRequest = Parameters<NonNullable<ServerOptions["onUploadCreate"]>>[0];

/** Who sent a request, set by the route after the auth hook, read by the tus hooks. */
export const uploadOwners = new WeakMap<IncomingMessage, string>();

function ownerOf(request: TusRequest): string {
  const raw = request.runtime?.node?.req as IncomingMessage | undefined;
  const owner = raw ? uploadOwners.get(raw) : undefined;
  if (!owner) throw new Error("an upload request reached tus without a signed-in user");
  return owner;
}

/** tus errors are `{ status_code, body }` with a text body; ours are AppErrors. Both leave as the API's error envelope. */
function toErrorEnvelope(error: unknown, log: FastifyBaseLogger): { status_code: number; body: string } {
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

/**
 * The tus 1.0 server (creation, creation-with-upload, creation-defer-length,
 * termination) on the file store. The locker is in memory: right
 * for one process; several API nodes need a shared one (docs/storage.md).
 */
export function buildTusServer(deps: {
  path: string;
  maxBytes: number;
  fileStore: HashingFileStore;
  service: UploadsService;
  log: FastifyBaseLogger;
}): Server {
  const { fileStore, service, log } = deps;
  const locker = new MemoryLocker();
  return new Server({
    path: deps.path,
    datastore: fileStore,
    locker,
    maxSize: deps.maxBytes,
    relativeLocation: true,
    // Stop a finished upload from being deleted while it is being moved into the blob store.
    disableTerminationForFinishedUploads: true,
    async onUploadCreate(request, upload) {
      // The owner is recorded server-side; whatever the client put under this key is replaced.
      return { metadata: { ...upload.metadata, [OWNER_METADATA_KEY]: ownerOf(request) } };
    },
    async onUploadFinish(request, upload) {
      // Hold the upload's lock while it is moved, so a DELETE or a stray PATCH waits.
      const lock = locker.newLock(upload.id);
      await lock.lock(new AbortController().signal, () => {});
      try {
        const outcome = await service.complete({
          id: upload.id,
          size: upload.size ?? upload.offset,
          metadata: upload.metadata ?? {},
        });
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
  });
}
