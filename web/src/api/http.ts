import { notification } from "antd";
import { i18n } from "../locales";
import { errorNotice } from "./error-messages";
import { type MessageParams, serverMessage } from "./server-messages";
import { clearSession, isExemptPath } from "./session";
import { isSignInPage, loadAuthConfig, refreshTokens, startSignIn, TokenEndpointError } from "./sign-in";
import { SessionExpiredError, TokenRefresher, webLock } from "./token-refresh";

/** Spec section 7: every call to the main API gives up after 30 s. */
export const REQUEST_TIMEOUT_MS = 30_000;

/** A failed call: `status` is null when no response arrived. */
export class ApiError extends Error {
  constructor(
    readonly status: number | null,
    message: string,
    readonly code?: string,
    /** The message's stable name and values, when the server gives them (server-messages.ts). */
    readonly coded: { msgCode?: string; msgParams?: MessageParams } = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** What to show for a server's refusal: its message in the UI language when translated, else the server's text. */
export function localizedMessage(error: ApiError): string {
  return serverMessage(
    { msg: error.message, ...error.coded },
    { t: (key, params) => i18n.t(key, params), exists: (key, params) => i18n.exists(key, params) },
  );
}

/** The one refresher of the page: concurrent calls share its refresh. */
export const tokenRefresher = new TokenRefresher({
  // Without the configuration the refresh token is never sent, let alone
  // refused (a fetch cut off by a reload, a server restarting): the session is kept.
  prepare: async () => {
    await loadAuthConfig().catch((cause: unknown) => {
      throw new TokenEndpointError(null, "auth_config_unavailable", cause instanceof Error ? cause.message : undefined);
    });
  },
  refresh: async (refreshToken) => refreshTokens(await loadAuthConfig(), refreshToken),
  exclusive: webLock,
  // No answer from the token endpoint is a network failure, not a refusal: the session is kept.
  isTransient: (error) => error instanceof TokenEndpointError && error.status === null,
});

/** How long the 'Unauthorized' notification shows before the page reloads. */
const RELOAD_DELAY_MS = 1500;
let ending = false;

/**
 * Spec sections 4 and 8: refresh failure or a stale expiry — tokens removed,
 * logout, 'Unauthorized / Authorization verification failed', reload. It
 * reloads even when the tokens are already gone (another tab ended the
 * session while this page waited for the refresh lock): this page was running
 * on that session, and without the reload it would wait on its spinner for
 * ever. It cannot loop: the refresher ends a session only when the page found
 * tokens, and the page comes back without any and starts a sign-in.
 */
export function endSession(): void {
  if (ending) return;
  ending = true;
  clearSession();
  notification.error({ message: i18n.t("error.unauthorized"), description: i18n.t("error.unauthorized.description") });
  setTimeout(() => window.location.reload(), RELOAD_DELAY_MS);
}

/**
 * The stored refresh token was sent by a page that left before the answer
 * came: the provider has probably rotated it, and redeeming it again would
 * revoke the grant. The sign-in starts again instead, without a message and
 * without logging out: while the provider's session lives it comes straight
 * back, to the page the user is on. On a sign-in page a sign-in is already
 * under way, whose tokens replace the lost ones: nothing more to do. A page
 * exempt from login (an embedded picker, an error page) never signs in by
 * itself, and neither does the sign-in start when it cannot: there the
 * session ends as usual.
 */
export function restartSignIn(): void {
  const { pathname, search, hash } = window.location;
  if (isSignInPage(pathname)) return;
  if (isExemptPath(pathname)) {
    endSession();
    return;
  }
  if (ending) return;
  ending = true;
  startSignIn(pathname + search + hash).catch(() => {
    ending = false;
    endSession();
  });
}

/** The token to send, refreshed when needed; ends the session when it cannot be renewed. */
export async function bearerToken(): Promise<string | null> {
  try {
    return await tokenRefresher.accessToken();
  } catch (error) {
    if (error instanceof SessionExpiredError) {
      if (error.reason === "answer_lost") restartSignIn();
      else endSession();
      throw new ApiError(401, error.message, "session_expired");
    }
    throw new ApiError(null, error instanceof Error ? error.message : String(error));
  }
}

/** Adds the bearer token (refreshed when needed) and the timeout to a request. */
export async function sendRequest(request: Request, fetchImpl: typeof fetch = fetch): Promise<Response> {
  const token = await bearerToken();
  const headers = new Headers(request.headers);
  if (token) headers.set("Authorization", `Bearer ${token}`);
  else headers.delete("Authorization");
  try {
    return await fetchImpl(new Request(request, { headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }));
  } catch (cause) {
    throw new ApiError(null, cause instanceof Error ? cause.message : String(cause));
  }
}

interface Envelope {
  code?: number;
  msg?: string;
  error?: string;
  msgCode?: string;
  msgParams?: MessageParams;
  data?: unknown;
}

/** The ApiError of a failed response's envelope. */
export function apiErrorOf(response: Response, envelope: Envelope | undefined): ApiError {
  return new ApiError(response.status, envelope?.msg ?? response.statusText, envelope?.error, {
    msgCode: envelope?.msgCode,
    msgParams: envelope?.msgParams,
  });
}

export interface CallOptions {
  /** Show no notification at all (background calls whose failure the page tolerates). */
  silent?: boolean;
  /** Do not show a notification for these statuses (the caller handles them). */
  silentStatuses?: number[];
}

/** Shows the spec section 8 notification for an error, or ends the session on 401. */
export function reportApiError(error: unknown, options: CallOptions = {}): void {
  if (!(error instanceof ApiError) || options.silent) return;
  if (error.status != null && options.silentStatuses?.includes(error.status)) return;
  const notice = errorNotice(error.status, localizedMessage(error), (key, params) => i18n.t(key, params));
  if (notice.kind === "unauthorized") {
    // Spec section 8: 401 clears the token keys, logs out and reloads. Reload
    // only when a token was stored, so a server that answers 401 to a guest
    // cannot put the page into a reload loop; an ended session was handled.
    if (error.code === "session_expired") return;
    if (clearSession()) window.location.reload();
    return;
  }
  notification.error({ message: notice.title, description: notice.description || undefined });
}
