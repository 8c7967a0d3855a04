import { AppError } from "../http/errors.js";

/**
 * Why a media operation gave up. A job that catches a MediaError ends as
 * failed with `reason` (a sentence a person can read) and does not retry
 * when `retryable` is false: the same bytes will fail the same way.
 */
export type MediaErrorKind =
  | "unsupported_format"
  | "too_large"
  | "corrupt"
  | "refused"
  | "timeout"
  | "aborted"
  | "tool_failed"
  | "tool_missing";

export class MediaError extends AppError {
  constructor(
    readonly kind: MediaErrorKind,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(kind === "unsupported_format" || kind === "refused" ? 415 : 422, `media_${kind}`, reason);
    if (options?.cause !== undefined) this.cause = options.cause;
  }

  /** A timeout or a missing tool may pass on another try; a bad file will not. */
  get retryable(): boolean {
    return this.kind === "timeout" || this.kind === "tool_missing";
  }
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
