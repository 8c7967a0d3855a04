/** The folder catalogue's tree: libraries at the top, their folders below, and where a drop moves a folder. */
import type { FolderNode } from "../../api/folders";

export interface CatalogueNode {
  key: string;
  title: string;
  libraryId: string;
  /** null for a library's own node. */
  folderId: string | null;
  parentId: string | null;
  isLeaf?: boolean;
  children: CatalogueNode[];
}

const libraryKey = (libraryId: string) => `library:${libraryId}`;

function folderNodes(libraryId: string, folders: readonly FolderNode[]): CatalogueNode[] {
  return folders.map((folder) => ({
    key: folder.id,
    title: folder.name,
    libraryId,
    folderId: folder.id,
    parentId: folder.parentId,
    children: folderNodes(libraryId, folder.children ?? []),
  }));
}

export function catalogueTree(
  libraries: readonly { id: string; name: string }[],
  folders: (libraryId: string) => readonly FolderNode[] | undefined,
): CatalogueNode[] {
  return libraries.map((library) => ({
    key: libraryKey(library.id),
    title: library.name,
    libraryId: library.id,
    folderId: null,
    parentId: null,
    children: folderNodes(library.id, folders(library.id) ?? []),
  }));
}

/** The siblings of a node: the children of its parent (the library's root folders for a top folder). */
function siblingsOf(tree: readonly CatalogueNode[], node: CatalogueNode): CatalogueNode[] {
  const library = tree.find((candidate) => candidate.libraryId === node.libraryId);
  if (!library) return [];
  if (node.parentId === null) return library.children;
  const find = (nodes: readonly CatalogueNode[]): CatalogueNode | undefined => {
    for (const candidate of nodes) {
      if (candidate.folderId === node.parentId) return candidate;
      const found = find(candidate.children);
      if (found) return found;
    }
    return undefined;
  };
  return find(library.children)?.children ?? [];
}

export interface Move {
  libraryId: string;
  folderId: string;
  parentId: string | null;
  /** The new order of the folder's new siblings, itself included: each one's sort is its index. */
  order: string[];
}

/**
 * What dropping `dragged` on `target` does, as antd's Tree reports it
 * (`dropToGap` false: into the target; true: beside it, before when
 * `dropPosition` is the target's index - 1, after otherwise). Null when
 * it is not allowed (a library is never moved; a folder stays in its
 * library). Any drop on a library's node moves the folder to its top level.
 */
export function moveOf(
  tree: readonly CatalogueNode[],
  dragged: CatalogueNode,
  target: CatalogueNode,
  drop: { dropToGap: boolean; before: boolean },
): Move | null {
  if (dragged.folderId === null || dragged.libraryId !== target.libraryId) return null;
  // The library's own node has no siblings to sit beside: antd reports a drop on its upper half as one
  // before it (dropToGap), which means "to the top level" all the same.
  if (!drop.dropToGap || target.folderId === null) {
    const siblings = target.children.filter((node) => node.key !== dragged.key);
    return {
      libraryId: dragged.libraryId,
      folderId: dragged.folderId,
      parentId: target.folderId,
      order: [dragged.folderId, ...siblings.map((node) => node.key)],
    };
  }
  const siblings = siblingsOf(tree, target).filter((node) => node.key !== dragged.key);
  const at = siblings.findIndex((node) => node.key === target.key) + (drop.before ? 0 : 1);
  const order = siblings.map((node) => node.key);
  order.splice(at, 0, dragged.folderId);
  return { libraryId: dragged.libraryId, folderId: dragged.folderId, parentId: target.parentId, order };
}

/** Sets the moved folder's parent and renumbers its new siblings (each one's sort is its index in `order`). */
export async function applyMove(
  move: Move,
  update: (libraryId: string, folderId: string, body: { parentId?: string | null; sort?: number }) => Promise<unknown>,
): Promise<void> {
  await update(move.libraryId, move.folderId, { parentId: move.parentId, sort: move.order.indexOf(move.folderId) });
  for (const [sort, id] of move.order.entries()) {
    if (id !== move.folderId) await update(move.libraryId, id, { sort });
  }
}

/** The node of a folder (or of the library itself: `library:<id>`) by its key. */
export function findNode(nodes: readonly CatalogueNode[], key: string): CatalogueNode | undefined {
  for (const node of nodes) {
    if (node.key === key) return node;
    const below = findNode(node.children, key);
    if (below) return below;
  }
  return undefined;
}
