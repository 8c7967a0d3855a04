import createClient from "openapi-fetch";
import { apiErrorOf, type CallOptions, reportApiError, sendRequest } from "./http";
import type { paths } from "./schema";

/**
 * The typed client. Paths in the generated schema carry the `/dams` base,
 * so the client's base URL is the page origin.
 */
export const api = createClient<paths>({
  baseUrl: typeof window === "undefined" ? "http://localhost" : window.location.origin,
  fetch: (request: Request) => sendRequest(request),
});

interface FetchResult<T> {
  data?: { data?: T } | undefined;
  error?: unknown;
  response: Response;
}

/** Awaits an openapi-fetch call and returns the envelope's data; reports failures. */
export async function call<T>(pending: Promise<FetchResult<T>>, options: CallOptions = {}): Promise<T> {
  try {
    const { data, error, response } = await pending;
    if (!response.ok) {
      throw apiErrorOf(response, (error ?? {}) as Parameters<typeof apiErrorOf>[1]);
    }
    return data?.data as T;
  } catch (error) {
    reportApiError(error, options);
    throw error;
  }
}

type MenusResponse = paths["/dams/api/v1/user-menus"]["get"]["responses"][200]["content"]["application/json"];
export type MenuItem = MenusResponse["data"][number];
export type MenuArea = "user" | "admin";

export function fetchMenus(area: MenuArea): Promise<MenuItem[]> {
  return area === "user" ? call(api.GET("/dams/api/v1/user-menus")) : call(api.GET("/dams/api/v1/admin-menus"));
}

type SystemInfoResponse = paths["/dams/api/v1/system/info"]["get"]["responses"][200]["content"]["application/json"];
export type SystemInfo = SystemInfoResponse["data"];

export function fetchSystemInfo(options: CallOptions = {}): Promise<SystemInfo> {
  return call(api.GET("/dams/api/v1/system/info"), options);
}
