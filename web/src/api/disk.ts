/** The network disk (docs/disk.md): types, calls, query keys, domain hooks. */
import { useQuery } from "@tanstack/react-query";
import { api, call, callFile } from "./client";
import type { components } from "./schema";

export type DiskNode = components["schemas"]["DiskNode"];
export type DiskList = components["schemas"]["DiskList"];
export type DiskUsage = components["schemas"]["DiskUsage"];
export type DiskShare = components["schemas"]["DiskShare"];
export type DiskSharedWithMe = components["schemas"]["DiskSharedWithMe"];
export type DiskSentFile = components["schemas"]["DiskSentFile"];
export type ShareLevel = DiskShare["level"];
export type ShareGrantee = { kind: "user"; username: string } | { kind: "role"; roleId: string } | { kind: "everyone" };

export const diskKeys = {
  all: ["disk"] as const,
  usage: () => [...diskKeys.all, "usage"] as const,
  folder: (folderId: string | null) => [...diskKeys.all, "folder", folderId ?? "root"] as const,
  trash: () => [...diskKeys.all, "trash"] as const,
  shares: (nodeId?: string) => [...diskKeys.all, "shares", nodeId ?? "all"] as const,
  sharedWithMe: () => [...diskKeys.all, "shared-with-me"] as const,
};

export const fetchDiskFolder = (folderId: string | null): Promise<DiskList> =>
  call(api.GET("/dams/api/v1/disk/nodes", { params: { query: folderId ? { folderId } : {} } }));
export const fetchDiskUsage = (): Promise<DiskUsage> => call(api.GET("/dams/api/v1/disk/usage"));
export const fetchDiskTrash = (): Promise<DiskNode[]> => call(api.GET("/dams/api/v1/disk/trash"));
export const fetchDiskShares = (nodeId?: string): Promise<DiskShare[]> =>
  call(api.GET("/dams/api/v1/disk/shares", { params: { query: nodeId ? { nodeId } : {} } }));
export const fetchSharedWithMe = (): Promise<DiskSharedWithMe[]> => call(api.GET("/dams/api/v1/disk/shared-with-me"));

export const createDiskFolder = (parentId: string | null, name: string): Promise<DiskNode> =>
  call(api.POST("/dams/api/v1/disk/folders", { body: { parentId, name } }));
export const updateDiskNode = (id: string, body: { name?: string; parentId?: string | null }): Promise<DiskNode> =>
  call(api.PATCH("/dams/api/v1/disk/nodes/{id}", { params: { path: { id } }, body }));
export const trashDiskNode = (id: string): Promise<null> =>
  call(api.DELETE("/dams/api/v1/disk/nodes/{id}", { params: { path: { id } } }));
export const restoreDiskNode = (id: string): Promise<DiskNode> =>
  call(api.POST("/dams/api/v1/disk/trash/{id}/restore", { params: { path: { id } } }));
export const purgeDiskNode = (id: string): Promise<null> =>
  call(api.DELETE("/dams/api/v1/disk/trash/{id}", { params: { path: { id } } }));
export const sendToLibrary = (body: {
  nodeIds: string[];
  libraryId: string;
  folderId?: string | null;
}): Promise<DiskSentFile[]> => call(api.POST("/dams/api/v1/disk/send-to-library", { body }));
export const saveStoryToDisk = (body: { libraryId: string; storyId: string; parentId?: string | null }) =>
  call(api.POST("/dams/api/v1/disk/from-story", { body: { parentId: null, ...body } }));
export const shareDiskNode = (id: string, grantee: ShareGrantee, level: ShareLevel): Promise<DiskShare> =>
  call(api.POST("/dams/api/v1/disk/nodes/{id}/shares", { params: { path: { id } }, body: { grantee, level } }));
export const revokeDiskShare = (id: string): Promise<null> =>
  call(api.DELETE("/dams/api/v1/disk/shares/{id}", { params: { path: { id } } }));
/** A file's bytes: a preview (inline) or a download (attachment). */
export const fetchDiskFile = (id: string, disposition: "inline" | "attachment") =>
  callFile(
    api.GET("/dams/api/v1/disk/nodes/{id}/content", {
      params: { path: { id }, query: { disposition } },
      parseAs: "blob",
    }),
  );

// ---------------------------------------------------------------- hooks

export const useDiskFolder = (folderId: string | null, enabled = true) =>
  useQuery({ queryKey: diskKeys.folder(folderId), queryFn: () => fetchDiskFolder(folderId), enabled });
export const useDiskUsage = () => useQuery({ queryKey: diskKeys.usage(), queryFn: fetchDiskUsage });
export const useDiskTrash = (enabled = true) =>
  useQuery({ queryKey: diskKeys.trash(), queryFn: fetchDiskTrash, enabled });
export const useDiskShares = (nodeId?: string) =>
  useQuery({ queryKey: diskKeys.shares(nodeId), queryFn: () => fetchDiskShares(nodeId) });
export const useSharedWithMe = (enabled = true) =>
  useQuery({ queryKey: diskKeys.sharedWithMe(), queryFn: fetchSharedWithMe, enabled });
