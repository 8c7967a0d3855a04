import createClient from "openapi-fetch";
import { apiErrorOf, type CallOptions, reportApiError, sendRequest } from "./http";
import type { paths } from "./schema";

export const pageOrigin = typeof window === "undefined" ? "http://localhost" : window.location.origin;
/** Lists in a query go comma-separated (`types=photo,video`), as every list parameter of the API reads them. */
export const querySerializer = { array: { style: "form", explode: false } } as const;

/**
 * The typed client: every call of the web app goes through it, so the
 * generated schema (and the CI check that it is fresh) covers every screen.
 * Paths in the schema carry the `/dams` base, so the base URL is the page
 * origin. Requests carry the session's bearer token, refreshed when needed.
 */
export const api = createClient<paths>({
  baseUrl: pageOrigin,
  querySerializer,
  fetch: (request) => sendRequest(request),
});

interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

async function settle<T>(pending: Promise<FetchResult<T>>): Promise<{ data: T | undefined; response: Response }> {
  const { data, error, response } = await pending;
  if (!response.ok) throw apiErrorOf(response, (error ?? {}) as Parameters<typeof apiErrorOf>[1]);
  return { data, response };
}

/** Awaits an openapi-fetch call and returns the envelope's data; reports failures (spec section 8). */
export async function call<T>(pending: Promise<FetchResult<{ data?: T }>>, options: CallOptions = {}): Promise<T> {
  try {
    return (await settle(pending)).data?.data as T;
  } catch (error) {
    reportApiError(error, options);
    throw error;
  }
}

/** A file the API answered with: its bytes and the name its Content-Disposition gives. */
export interface ApiFile {
  blob: Blob;
  /** The attachment's file name (RFC 6266 filename*), when the response names one. */
  name: string | null;
}

/** Awaits an openapi-fetch call made with `parseAs: "blob"` and returns the file; reports failures. */
export async function callFile(pending: Promise<FetchResult<Blob>>, options: CallOptions = {}): Promise<ApiFile> {
  try {
    const { data, response } = await settle(pending);
    return { blob: data ?? new Blob(), name: attachmentName(response.headers.get("content-disposition")) };
  } catch (error) {
    reportApiError(error, options);
    throw error;
  }
}

/** The file name of an attachment response (RFC 6266 filename*, else filename). */
export function attachmentName(disposition: string | null): string | null {
  if (!disposition) return null;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1]);
    } catch {
      /* fall through to the plain name */
    }
  }
  return /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? null;
}

type MenusResponse = paths["/dams/api/v1/user-menus"]["get"]["responses"][200]["content"]["application/json"];
export type MenuItem = MenusResponse["data"][number];
export type MenuArea = "user" | "admin";

export function fetchMenus(area: MenuArea): Promise<MenuItem[]> {
  return area === "user" ? call(api.GET("/dams/api/v1/user-menus")) : call(api.GET("/dams/api/v1/admin-menus"));
}
