/**
 * The sign-in server's own pages' calls (no bearer token: the user is signing
 * in): the pending interaction, the credentials, registration. Same origin,
 * so the provider's httpOnly interaction cookie goes along.
 */

import { ApiError } from "./http";
import { publicApi } from "./public-client";
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

interface FetchResult<T> {
  data?: { data?: T };
  error?: unknown;
  response: Response;
}

/** Awaits a public call of the sign-in pages: the envelope's data, or an IdentityError with Retry-After. */
async function identityCall<T>(pending: Promise<FetchResult<T>>): Promise<T> {
  let result: FetchResult<T>;
  try {
    result = await pending;
  } catch (cause) {
    throw new IdentityError(null, cause instanceof Error ? cause.message : String(cause), undefined, null);
  }
  const { data, error, response } = result;
  if (!response.ok) {
    const envelope = (error ?? {}) as { msg?: string; error?: string };
    throw new IdentityError(
      response.status,
      envelope.msg ?? response.statusText,
      envelope.error,
      retryAfterSeconds(response.headers.get("retry-after")),
    );
  }
  return data?.data as T;
}

const JSON_ANSWER = { headers: { accept: "application/json" } };

export function fetchInteraction(uid: string): Promise<SignInInteraction> {
  return identityCall(publicApi.GET("/uuas/interaction/{uid}", { ...JSON_ANSWER, params: { path: { uid } } }));
}

export function submitLogin(
  uid: string,
  credentials: { username: string; password: string },
): Promise<{ redirectTo: string }> {
  return identityCall(
    publicApi.POST("/uuas/interaction/{uid}/login", { ...JSON_ANSWER, params: { path: { uid } }, body: credentials }),
  );
}

export function register(account: { username: string; name: string; password: string }): Promise<RegisteredUser> {
  return identityCall(publicApi.POST("/uuas/register", { ...JSON_ANSWER, body: account }));
}
