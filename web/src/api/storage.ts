/** Storage targets (/manage/setting/bucket) and which target each library uses (/manage/storage/setting). */
import { useQuery } from "@tanstack/react-query";
import type { JsonBody } from "./bodies";
import { api, call } from "./client";
import { useRefreshingWrite } from "./refreshing-write";
import { CONFLICT } from "./resource";
import type { components } from "./schema";

export type StorageTarget = components["schemas"]["StorageTarget"];
export type StorageTargetTest = components["schemas"]["StorageTargetTest"];
export type StorageSettings = components["schemas"]["StorageSettings"];
export type StorageMove = components["schemas"]["StorageMove"];
export type StorageTargetInput = JsonBody<"/dams/api/v1/storage/targets", "post">;

/** The built-in storage's id (the configured data directory or bucket). */
export const BUILT_IN_TARGET = "builtin";
/** The settings page asks again this often while a move runs. */
export const MOVE_POLL_MS = 1500;

const byId = (id: string) => ({ params: { path: { id } } });
const byLibrary = (libraryId: string) => ({ params: { path: { libraryId } } });

export const storageKeys = {
  all: ["storage"] as const,
  targets: () => [...storageKeys.all, "targets"] as const,
  settings: () => [...storageKeys.all, "settings"] as const,
};

export const listStorageTargets = (): Promise<StorageTarget[]> => call(api.GET("/dams/api/v1/storage/targets"));
export const createStorageTarget = (body: StorageTargetInput): Promise<StorageTarget> =>
  call(api.POST("/dams/api/v1/storage/targets", { body }), CONFLICT);
export const updateStorageTarget = (id: string, body: StorageTargetInput): Promise<StorageTarget> =>
  call(api.PUT("/dams/api/v1/storage/targets/{id}", { ...byId(id), body }), CONFLICT);
export const deleteStorageTarget = (id: string): Promise<null> =>
  call(api.DELETE("/dams/api/v1/storage/targets/{id}", byId(id)), CONFLICT);
export const testStorageTarget = (id: string): Promise<StorageTargetTest> =>
  call(api.POST("/dams/api/v1/storage/targets/{id}/test", byId(id)));
export const testStorageSettings = (body: StorageTargetInput, id?: string): Promise<StorageTargetTest> =>
  call(api.POST("/dams/api/v1/storage/targets/test", { body, params: { query: id ? { id } : {} } }));

export const fetchStorageSettings = (): Promise<StorageSettings> => call(api.GET("/dams/api/v1/storage/settings"));

/** The storage settings, polled while a library's move is on its way. */
export const useStorageSettings = () =>
  useQuery({
    queryKey: storageKeys.settings(),
    queryFn: fetchStorageSettings,
    refetchInterval: (query) =>
      query.state.data?.libraries.some((library) => library.move && ["queued", "running"].includes(library.move.state))
        ? MOVE_POLL_MS
        : false,
  });

const useStorageWrite = <A>(write: (args: A) => Promise<unknown>) => useRefreshingWrite(storageKeys.all, write);

export const useSetDefaultTarget = () =>
  useStorageWrite((targetId: string) =>
    call(api.PUT("/dams/api/v1/storage/default", { body: { targetId } }), CONFLICT),
  );
export const useSetLibraryTarget = () =>
  useStorageWrite(({ libraryId, targetId }: { libraryId: string; targetId: string | null }) =>
    call(
      api.PUT("/dams/api/v1/storage/libraries/{libraryId}", { ...byLibrary(libraryId), body: { targetId } }),
      CONFLICT,
    ),
  );
export const useMoveLibrary = () =>
  useStorageWrite(({ libraryId, targetId }: { libraryId: string; targetId: string }) =>
    call(
      api.POST("/dams/api/v1/storage/libraries/{libraryId}/move", { ...byLibrary(libraryId), body: { targetId } }),
      CONFLICT,
    ),
  );

export type LibraryQuota = components["schemas"]["LibraryQuota"];
export type DiskUsage = components["schemas"]["DiskUsage"];

/** Quotas per library (GET /storage/quotas): each library's usage and quota. */
export const useLibraryQuotas = () =>
  useQuery({
    queryKey: [...storageKeys.all, "quotas"],
    queryFn: (): Promise<LibraryQuota[]> => call(api.GET("/dams/api/v1/storage/quotas")),
  });
export const useSetLibraryQuota = () =>
  useStorageWrite(({ libraryId, quotaBytes }: { libraryId: string; quotaBytes: number | null }) =>
    call(
      api.PUT("/dams/api/v1/storage/quotas/libraries/{libraryId}", { ...byLibrary(libraryId), body: { quotaBytes } }),
    ),
  );

/** Users to pick for a disk quota, by user name or name (GET /disk/quota-users: the storage settings' own permission). */
export const fetchQuotaUsers = (keyword: string): Promise<{ id: string; username: string; name: string | null }[]> =>
  call(api.GET("/dams/api/v1/disk/quota-users", { params: { query: { size: 20, ...(keyword ? { keyword } : {}) } } }));

/** A user's network-disk usage and quota (the user quota the disk and WebDAV hold to). */
export const fetchUserQuota = (userId: string): Promise<DiskUsage> =>
  call(api.GET("/dams/api/v1/disk/quotas/{userId}", { params: { path: { userId } } }));
export const setUserQuota = (userId: string, quotaBytes: number): Promise<DiskUsage> =>
  call(api.PUT("/dams/api/v1/disk/quotas/{userId}", { params: { path: { userId } }, body: { quotaBytes } }));
