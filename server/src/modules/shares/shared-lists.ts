import type { FolderNode } from "../folders/folders.service.js";
import { type StoryListQuery, storyListQuery } from "../search/search.schema.js";
import { STORY_STATUSES } from "../stories/story-types.js";

/** The folder and every folder under it (empty when it is gone). */
export function subtree(roots: FolderNode[], folderId: string): string[] {
  const find = (nodes: FolderNode[]): FolderNode | undefined => {
    for (const node of nodes) {
      if (node.id === folderId) return node;
      const inner = find(node.children);
      if (inner) return inner;
    }
    return undefined;
  };
  const start = find(roots);
  if (!start) return [];
  const ids: string[] = [];
  const walk = (node: FolderNode) => {
    ids.push(node.id);
    for (const child of node.children) walk(child);
  };
  walk(start);
  return ids;
}

/**
 * A folder's or search's list as a visitor sees it: committed and published
 * stories only — never drafts, which the owner's own list would include
 * (their drafts, and the files visitors dropped). An empty `status`: the
 * search asked for drafts only, so nothing.
 */
export function listQuery(raw: Record<string, string>, size: number): StoryListQuery {
  const { page: _page, size: _size, facets: _facets, ...rest } = raw;
  const query = storyListQuery.parse({ ...rest, page: "0", size: String(Math.max(1, size)) });
  return { ...query, status: (query.status ?? STORY_STATUSES).filter((status) => status !== "draft") };
}
