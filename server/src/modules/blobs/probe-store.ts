import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { S3ServiceException } from "@aws-sdk/client-s3";
import type { BlobStore } from "./blob-store.js";
import { isStorageUnreachable } from "./storage-errors.js";

export type ProbeFailure = "unreachable" | "bad_credentials" | "no_such_bucket" | "not_writable" | "failed";

export interface ProbeResult {
  ok: boolean;
  reason: ProbeFailure | null;
  message: string;
}

const CREDENTIAL_ERRORS = new Set([
  "InvalidAccessKeyId",
  "SignatureDoesNotMatch",
  "AccessDenied",
  "InvalidToken",
  "ExpiredToken",
  "CredentialsProviderError",
]);

function nameOf(error: unknown): string {
  return error instanceof Error ? error.name : "";
}

/** Why a store refused the probe, as a code a person's message is chosen by. */
export function classifyStoreFailure(error: unknown): ProbeFailure {
  const cause = (error as { cause?: unknown }).cause ?? error;
  if (isStorageUnreachable(error) && !(cause instanceof S3ServiceException)) return "unreachable";
  const name = nameOf(cause);
  if (name === "NoSuchBucket") return "no_such_bucket";
  if (CREDENTIAL_ERRORS.has(name)) return "bad_credentials";
  if (cause instanceof S3ServiceException) {
    const status = cause.$metadata.httpStatusCode ?? 0;
    if (status === 403) return "bad_credentials";
    if (status === 404) return "no_such_bucket";
    if (status >= 500) return "unreachable";
  }
  if (isStorageUnreachable(cause)) return "unreachable";
  const code = (cause as { code?: unknown }).code;
  if (code === "EACCES" || code === "EPERM" || code === "EROFS" || code === "ENOTDIR" || code === "ENOSPC") {
    return "not_writable";
  }
  return "failed";
}

const MESSAGES: Record<ProbeFailure, string> = {
  unreachable: "the storage cannot be reached (address, port or network)",
  bad_credentials: "the storage refused the access key or its secret",
  no_such_bucket: "the bucket does not exist",
  not_writable: "the folder cannot be written",
  failed: "the storage answered with an error",
};

/**
 * "Test connection": writes a small object under `dams-probe/`, reads its
 * size back and deletes it, so reading, writing and deleting are all tried.
 */
export async function probeStore(store: BlobStore): Promise<ProbeResult> {
  const key = `dams-probe/${randomUUID()}`;
  const body = Buffer.from("dams storage probe\n");
  try {
    await store.put(key, Readable.from([body]), { contentType: "text/plain" });
    const stat = await store.stat(key);
    if (stat?.size !== body.length) {
      return { ok: false, reason: "failed", message: "an object written was not read back whole" };
    }
    await store.delete(key);
    return { ok: true, reason: null, message: "wrote, read back and deleted a probe object" };
  } catch (error) {
    const reason = classifyStoreFailure(error);
    const detail =
      error instanceof Error
        ? `${nameOf((error as { cause?: unknown }).cause ?? error)}: ${error.message}`
        : String(error);
    return { ok: false, reason, message: `${MESSAGES[reason]} (${detail})` };
  }
}
