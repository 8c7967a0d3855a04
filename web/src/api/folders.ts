/** The folder trees of libraries: types, calls, query keys, domain hooks. */
import { useQuery } from "@tanstack/react-query";
import { api, call } from "./client";
import type { components } from "./schema";

export type FolderNode = components["schemas"]["FolderNode"];

export const folderKeys = {
  all: ["folders"] as const,
  tree: (libraryId: string) => [...folderKeys.all, libraryId] as const,
};

export const fetchFolders = (libraryId: string): Promise<FolderNode[]> =>
  call(api.GET("/dams/api/v1/libraries/{libraryId}/folders", { params: { path: { libraryId } } }));

export type Folder = components["schemas"]["Folder"];
/** Refusals the catalogue page explains itself (a name taken, a folder not empty). */
const EXPLAINED = { silentStatuses: [409] };
const inFolder = (libraryId: string, folderId: string) => ({ params: { path: { libraryId, folderId } } });

export const createFolder = (libraryId: string, body: { name: string; parentId?: string | null }): Promise<Folder> =>
  call(api.POST("/dams/api/v1/libraries/{libraryId}/folders", { params: { path: { libraryId } }, body }), EXPLAINED);
export const updateFolder = (
  libraryId: string,
  folderId: string,
  body: { name?: string; parentId?: string | null; sort?: number },
): Promise<Folder> =>
  call(
    api.PUT("/dams/api/v1/libraries/{libraryId}/folders/{folderId}", { ...inFolder(libraryId, folderId), body }),
    EXPLAINED,
  );
export const deleteFolder = (libraryId: string, folderId: string): Promise<null> =>
  call(api.DELETE("/dams/api/v1/libraries/{libraryId}/folders/{folderId}", inFolder(libraryId, folderId)), EXPLAINED);

/** A folder tree as the options of a TreeSelect. */
export interface FolderOption {
  value: string;
  title: string;
  children: FolderOption[];
}
export const folderOptions = (nodes: readonly FolderNode[]): FolderOption[] =>
  nodes.map((node) => ({ value: node.id, title: node.name, children: folderOptions(node.children ?? []) }));

// ---------------------------------------------------------------- hooks

/** A library's folder tree; nothing is asked while no library is given. */
export const useFolders = (libraryId: string | undefined) =>
  useQuery({
    queryKey: folderKeys.tree(libraryId ?? ""),
    queryFn: () => fetchFolders(libraryId as string),
    enabled: Boolean(libraryId),
  });
