import type { Readable } from "node:stream";

/** A file sent with an item: a rendition or the original. */
export interface OutgoingFile {
  name: string;
  mime: string;
  size: number;
  open(): Promise<Readable>;
}

/** What one delivery sends: the files (none for a kill), then the item document. */
export interface DeliveryPackage {
  /** The same on every attempt, so receivers can de-duplicate. */
  deliveryId: string;
  action: "publish" | "kill";
  /** The stem every file of this story on this channel shares: `<storyId>`. */
  baseName: string;
  files: OutgoingFile[];
  item: { name: string; mime: string; body: Buffer };
  /** For messages: the story's title. */
  title: string;
}

/**
 * Why a delivery or a test failed, in words an administrator can act on.
 * `retry`: it may pass later (a timeout, a 5xx, a refused connection);
 * otherwise it never will as configured (a 4xx, a refused login, a refused address).
 */
export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
    /** How long the receiver asked us to wait before trying again (HTTP Retry-After), when it said. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = "DeliveryError";
  }
}

/** One way out of the building: HTTP, a folder, SFTP, S3, e-mail. */
export interface Transport {
  /** Connects, checks access and writes nothing the receiver keeps; throws DeliveryError with the reason. */
  test(signal: AbortSignal): Promise<string>;
  /** Sends the package; idempotent for the same delivery id (files are overwritten by name). */
  deliver(delivery: DeliveryPackage, signal: AbortSignal): Promise<void>;
}

/** A network error's message in plain words: ECONNREFUSED → "connection refused". */
export function networkReason(error: unknown, where: string): DeliveryError {
  if (error instanceof DeliveryError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  const words: Record<string, string> = {
    ECONNREFUSED: "refused the connection",
    ECONNRESET: "closed the connection",
    ETIMEDOUT: "did not answer in time",
    EHOSTUNREACH: "is unreachable",
    ENETUNREACH: "is on an unreachable network",
    ENOTFOUND: "could not be resolved",
    EAI_AGAIN: "could not be resolved (DNS did not answer)",
  };
  const said = code && words[code] ? words[code] : (error as Error).message;
  return new DeliveryError(`${where} ${said}`, true);
}

/** An HTTP Retry-After value (delta-seconds or an HTTP date) in milliseconds from `now`; undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
