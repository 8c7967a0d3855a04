import type { FolderNode } from "../../../../api/folders";

/** The folders from the root down to `folderId` (empty when absent or unknown): the breadcrumb. */
export function folderPath(nodes: readonly FolderNode[], folderId: string | undefined): FolderNode[] {
  if (!folderId) return [];
  for (const node of nodes) {
    if (node.id === folderId) return [node];
    const below = folderPath(node.children, folderId);
    if (below.length > 0) return [node, ...below];
  }
  return [];
}

export interface FolderTreeItem {
  key: string;
  title: string;
  children: FolderTreeItem[];
}

export function toTreeData(nodes: readonly FolderNode[]): FolderTreeItem[] {
  return nodes.map((node) => ({ key: node.id, title: node.name, children: toTreeData(node.children) }));
}
