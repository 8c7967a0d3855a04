/**
 * The sign-in server's own pages' calls (no bearer token: the user is signing
 * in): the pending interaction, the credentials, registration. Same origin,
 * so the provider's httpOnly interaction cookie goes along.
 */
import { ApiError, REQUEST_TIMEOUT_MS } from "./http";
import type { components } from "./schema";

export type SignInInteraction = components["schemas"]["SignInInteraction"];
export type RegisteredUser = components["schemas"]["RegisteredUser"];

/** An ApiError that also carries Retry-After (seconds) of a 429. */
export class IdentityError extends ApiError {
  constructor(
    status: number | null,
    message: string,
    code: string | undefined,
    readonly retryAfterSeconds: number | null,
  ) {
    super(status, message, code);
    this.name = "IdentityError";
  }
}

/** Retry-After as seconds (delta-seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

async function identityCall<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? { accept: "application/json" } : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (cause) {
    throw new IdentityError(null, cause instanceof Error ? cause.message : String(cause), undefined, null);
  }
  const envelope = (await response.json().catch(() => ({}))) as { msg?: string; error?: string; data?: T };
  if (!response.ok) {
    throw new IdentityError(
      response.status,
      envelope.msg ?? response.statusText,
      envelope.error,
      retryAfterSeconds(response.headers.get("retry-after")),
    );
  }
  return envelope.data as T;
}

const uid = (value: string) => encodeURIComponent(value);

export function fetchInteraction(interactionUid: string): Promise<SignInInteraction> {
  return identityCall("GET", `/uuas/interaction/${uid(interactionUid)}`);
}

export function submitLogin(
  interactionUid: string,
  credentials: { username: string; password: string },
): Promise<{ redirectTo: string }> {
  return identityCall("POST", `/uuas/interaction/${uid(interactionUid)}/login`, credentials);
}

export function register(account: { username: string; name: string; password: string }): Promise<RegisteredUser> {
  return identityCall("POST", "/uuas/register", account);
}
