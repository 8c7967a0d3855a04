import type { MenuItem } from "../api/client";
import { flattenMenu } from "../router/menu-routes";

export interface MenuKeys {
  /** The menu entry to highlight: the current page's item, or its nearest visible ancestor. */
  selected: string[];
  /** The groups that lead to it (and it, when it is a group), outermost first: opened in an inline menu. */
  open: string[];
}

const covers = (itemPath: string, pathname: string) =>
  itemPath === pathname || pathname.startsWith(itemPath.endsWith("/") ? itemPath : `${itemPath}/`);

/**
 * Which menu entry a path belongs to: the item with that path, else the
 * deepest item whose path is a prefix of it (a page under a menu entry, such
 * as /frontend/product/… under /frontend). A hidden item highlights its
 * nearest visible ancestor, opened (/backend/monitor/storage is a hidden
 * page of the monitor group).
 */
export function menuKeysFor(pathname: string, items: MenuItem[]): MenuKeys {
  let best: { item: MenuItem; parents: MenuItem[] } | undefined;
  for (const entry of flattenMenu(items)) {
    if (!entry.item.path || !covers(entry.item.path, pathname)) continue;
    if (!best || entry.item.path.length > best.item.path.length) best = entry;
  }
  if (!best) return { selected: [], open: [] };
  const chain = [...best.parents, best.item];
  const firstHidden = chain.findIndex((item) => item.hidden);
  const visible = firstHidden === -1 ? chain : chain.slice(0, firstHidden);
  const last = visible[visible.length - 1];
  return {
    selected: last ? [last.path] : [],
    open: visible.filter((item) => item.children.length > 0).map((item) => item.path),
  };
}

/** The tree without hidden items (they have routes, not menu entries). */
export function visibleMenu(items: MenuItem[]): MenuItem[] {
  return items.filter((item) => !item.hidden).map((item) => ({ ...item, children: visibleMenu(item.children) }));
}
