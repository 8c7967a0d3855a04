/** The download centre's calls: fetch media from URLs into a library, and follow the fetches. */
import { api, call } from "./client";
import type { components, paths } from "./schema";

export type UrlFetch = components["schemas"]["UrlFetch"];
export type UrlFetchInput =
  paths["/dams/api/v1/thirdfiledownload/download/action/asy"]["post"]["requestBody"]["content"]["application/json"];

export interface UrlFetchPage {
  content: UrlFetch[];
  totalElements: number;
  size: number;
  number: number;
}

/** Starts a fetch. A refused URL (400, with its reason) is shown by the page next to the URL, not as a toast. */
export const startUrlFetch = (body: UrlFetchInput): Promise<UrlFetch> =>
  call(api.POST("/dams/api/v1/thirdfiledownload/download/action/asy", { body }), { silentStatuses: [400, 403, 404] });

export const listUrlFetches = (page: number, size: number): Promise<UrlFetchPage> =>
  call(api.GET("/dams/api/v1/thirdfiledownload/downloads", { params: { query: { page, size } } }));

export const retryUrlFetch = (id: string): Promise<UrlFetch> =>
  call(api.POST("/dams/api/v1/thirdfiledownload/downloads/{id}/retry", { params: { path: { id } } }));

/** Stops a queued or running fetch of the user's; it shows "cancelled" and may be retried. */
export const cancelUrlFetch = (id: string): Promise<UrlFetch> =>
  call(api.POST("/dams/api/v1/thirdfiledownload/downloads/{id}/cancel", { params: { path: { id } } }));

/** The spec's progress call: the user's latest fetch of `url`. */
export const urlFetchRate = (url: string): Promise<UrlFetch> =>
  call(api.GET("/dams/api/v1/video-download/rate", { params: { query: { url } } }));
