/** The administrators' library settings (/manage/setting/library): types, calls, query keys. */
import { api, call } from "./client";
import type { ListQuery, Page } from "./paging";
import { CONFLICT } from "./resource";
import type { components, paths } from "./schema";

export type LibrarySettings = components["schemas"]["LibrarySettings"];
export type NewLibraryInput = NonNullable<
  paths["/dams/api/v1/library-settings"]["post"]["requestBody"]
>["content"]["application/json"];
export type LibrarySettingsInput = Omit<NewLibraryInput, "id">;

const byLibrary = (libraryId: string) => ({ params: { path: { libraryId } } });

export const librarySettingsKeys = {
  all: ["library-settings"] as const,
};

export const listLibrarySettings = (query: ListQuery): Promise<Page<LibrarySettings>> =>
  call(api.GET("/dams/api/v1/library-settings", { params: { query } }));
export const createLibrary = (body: NewLibraryInput): Promise<LibrarySettings> =>
  call(api.POST("/dams/api/v1/library-settings", { body }), CONFLICT);
export const updateLibrary = (libraryId: string, body: LibrarySettingsInput): Promise<LibrarySettings> =>
  call(api.PUT("/dams/api/v1/library-settings/{libraryId}", { ...byLibrary(libraryId), body }), CONFLICT);
export const archiveLibrary = (libraryId: string): Promise<LibrarySettings> =>
  call(api.POST("/dams/api/v1/library-settings/{libraryId}/archive", byLibrary(libraryId)), CONFLICT);
export const restoreLibrary = (libraryId: string): Promise<LibrarySettings> =>
  call(api.POST("/dams/api/v1/library-settings/{libraryId}/restore", byLibrary(libraryId)), CONFLICT);
export const deleteLibrary = (libraryId: string): Promise<null> =>
  call(api.DELETE("/dams/api/v1/library-settings/{libraryId}", byLibrary(libraryId)), CONFLICT);
