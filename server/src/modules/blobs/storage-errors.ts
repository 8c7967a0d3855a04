import { S3ServiceException } from "@aws-sdk/client-s3";
import { AppError } from "../../http/errors.js";

/** Network failures: the object store is down, restarting or unreachable. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ECONNABORTED",
  "UND_ERR_SOCKET",
]);

/**
 * 503 with a message a person understands: the blob storage (the S3 bucket)
 * could not be reached. Nothing was lost; the same request succeeds once the
 * storage is back (tus clients resume, jobs retry by themselves).
 */
export class StorageUnavailable extends AppError {
  constructor(options?: { cause?: unknown }) {
    super(503, "storage_unavailable", "The media storage cannot be reached at the moment; try again shortly.");
    this.withMessageCode("storage.unavailable");
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

function codeOf(error: unknown): string | undefined {
  if (!error || typeof error !== "object") return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") return code;
  return codeOf((error as { cause?: unknown }).cause);
}

/** Whether an error means the object store is unreachable or failing (not: the object is missing, access is denied). */
export function isStorageUnreachable(error: unknown): boolean {
  if (error instanceof StorageUnavailable) return true;
  if (error instanceof S3ServiceException) return (error.$metadata.httpStatusCode ?? 0) >= 500;
  const code = codeOf(error);
  if (code && NETWORK_CODES.has(code)) return true;
  const name = error instanceof Error ? error.name : "";
  return name === "TimeoutError" || name === "RequestTimeout" || /socket hang up/i.test(String(error));
}

/** The error to pass on: StorageUnavailable for an unreachable store, else the error itself. */
export function storageError(error: unknown): unknown {
  return isStorageUnreachable(error) && !(error instanceof StorageUnavailable)
    ? new StorageUnavailable({ cause: error })
    : error;
}

/** Makes every call of an S3 client (after the SDK's own retries) throw StorageUnavailable when the store is unreachable. */
export function mapStorageErrors(client: {
  middlewareStack: { add(middleware: unknown, options: { step: "initialize"; name: string }): void };
}): void {
  client.middlewareStack.add(
    (next: (args: unknown) => Promise<unknown>) => async (args: unknown) => {
      try {
        return await next(args);
      } catch (error) {
        throw storageError(error);
      }
    },
    { step: "initialize", name: "damsStorageErrors" },
  );
}
