/** The storage and data monitors' figures and the usage statistics (calls, query keys, hooks). */
import { keepPreviousData, type QueryKey, useQuery } from "@tanstack/react-query";
import { api, call } from "./client";
import type { components } from "./schema";

export type StorageMonitor = components["schemas"]["StorageMonitor"];
export type DataMonitor = components["schemas"]["DataMonitor"];
export type UsageRow = components["schemas"]["UsageRow"];
export type SearchMiss = components["schemas"]["SearchMiss"];
export type UnusedStory = components["schemas"]["UnusedStory"];
export type UsageDimension = "story" | "user" | "library" | "author" | "source";
export interface UsagePeriod {
  /** ISO instants, [from, to). */
  from: string;
  to: string;
}

export const monitorKeys = {
  all: ["monitor"] as const,
  storage: (days: number) => [...monitorKeys.all, "storage", days] as const,
  data: (days: number) => [...monitorKeys.all, "data", days] as const,
  usage: (period: UsagePeriod, by: UsageDimension) => [...monitorKeys.all, "usage", period, by] as const,
  unused: (period: UsagePeriod) => [...monitorKeys.all, "unused", period] as const,
  searches: (period: UsagePeriod) => [...monitorKeys.all, "searches", period] as const,
};

export const fetchStorageMonitor = (days: number): Promise<StorageMonitor> =>
  call(api.GET("/dams/api/v1/monitor/storage", { params: { query: { days } } }));
export const fetchDataMonitor = (days: number): Promise<DataMonitor> =>
  call(api.GET("/dams/api/v1/monitor/data", { params: { query: { days } } }));

/** A monitor's figures, asked again every minute while the page is open; the last ones stay shown meanwhile. */
const useEveryMinute = <T>(queryKey: QueryKey, queryFn: () => Promise<T>) =>
  useQuery({ queryKey, queryFn, refetchInterval: 60_000, placeholderData: keepPreviousData });

export const useStorageMonitor = (days: number) =>
  useEveryMinute(monitorKeys.storage(days), () => fetchStorageMonitor(days));
export const useDataMonitor = (days: number) => useEveryMinute(monitorKeys.data(days), () => fetchDataMonitor(days));

/** The most used rows (at most 500). */
export const USAGE_LIMIT = 500;

export const useUsage = (period: UsagePeriod, by: UsageDimension) =>
  useQuery({
    queryKey: monitorKeys.usage(period, by),
    queryFn: (): Promise<UsageRow[]> =>
      call(api.GET("/dams/api/v1/statistics/usage", { params: { query: { ...period, by, limit: USAGE_LIMIT } } })),
    placeholderData: keepPreviousData,
  });

export const useUnusedStories = (period: UsagePeriod) =>
  useQuery({
    queryKey: monitorKeys.unused(period),
    queryFn: (): Promise<UnusedStory[]> =>
      call(api.GET("/dams/api/v1/statistics/unused", { params: { query: { ...period, limit: 100 } } })),
    placeholderData: keepPreviousData,
  });

/** The searches that found nothing in the period, most frequent first (at most 500). */
export const useSearchMisses = (period: UsagePeriod) =>
  useQuery({
    queryKey: monitorKeys.searches(period),
    queryFn: (): Promise<SearchMiss[]> =>
      call(api.GET("/dams/api/v1/statistics/searches", { params: { query: { ...period, limit: USAGE_LIMIT } } })),
    placeholderData: keepPreviousData,
  });
