/** The download centre: fetch media from URLs into a library, and follow the fetches (calls, query keys, hook). */
import { useQuery } from "@tanstack/react-query";
import { api, call } from "./client";
import type { PageOf } from "./paging";
import type { components, paths } from "./schema";

export type UrlFetch = components["schemas"]["UrlFetch"];
export type UrlFetchInput =
  paths["/dams/api/v1/thirdfiledownload/download/action/asy"]["post"]["requestBody"]["content"]["application/json"];

export type UrlFetchPage = PageOf<UrlFetch>;

export const urlFetchKeys = {
  all: ["url-fetches"] as const,
  page: (page: { number: number; size: number }) => [...urlFetchKeys.all, page] as const,
};

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

// ---------------------------------------------------------------- hooks

/** A page of the user's fetches; `poll` says how soon to ask again (false: not while none is active). */
export const useUrlFetches = (page: { number: number; size: number }, poll: (data?: UrlFetchPage) => number | false) =>
  useQuery({
    queryKey: urlFetchKeys.page(page),
    queryFn: () => listUrlFetches(page.number, page.size),
    refetchInterval: (query) => poll(query.state.data),
  });
