import { notification } from "antd";
import { i18n } from "../locales";
import { errorNotice } from "./error-messages";
import { clearSession, getAccessToken } from "./session";

/** Spec section 7: every call to the main API gives up after 30 s. */
export const REQUEST_TIMEOUT_MS = 30_000;
export const API_BASE = "/dams";

/** A failed call: `status` is null when no response arrived. */
export class ApiError extends Error {
  constructor(
    readonly status: number | null,
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** Adds the bearer token (when one is stored) and the timeout to a request. */
export async function sendRequest(request: Request, fetchImpl: typeof fetch = fetch): Promise<Response> {
  const token = getAccessToken();
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
  data?: unknown;
}

/** Turns a response into its envelope's data, or throws an ApiError. */
export async function unwrapResponse<T>(response: Response, body?: unknown): Promise<T> {
  const envelope = (body ?? (await response.json().catch(() => undefined))) as Envelope | undefined;
  if (!response.ok) {
    throw new ApiError(response.status, envelope?.msg ?? response.statusText, envelope?.error);
  }
  return envelope?.data as T;
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
  const notice = errorNotice(error.status, error.message, (key, params) => i18n.t(key, params));
  if (notice.kind === "unauthorized") {
    // Reload only when a token was stored, so a server that answers 401 to a
    // guest cannot put the page into a reload loop.
    if (clearSession()) window.location.reload();
    return;
  }
  notification.error({ message: notice.title, description: notice.description || undefined });
}

/** GET a path under /dams that the typed schema does not (yet) declare. */
export async function getJson<T>(path: string, options: CallOptions = {}): Promise<T> {
  try {
    const response = await sendRequest(new Request(new URL(API_BASE + path, window.location.origin)));
    return await unwrapResponse<T>(response);
  } catch (error) {
    reportApiError(error, options);
    throw error;
  }
}
