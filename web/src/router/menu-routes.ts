import { matchPath } from "react-router-dom";
import type { MenuItem } from "../api/client";

/** Every item of a menu tree, depth first, each with the chain of its ancestors. */
export function flattenMenu(items: MenuItem[], parents: MenuItem[] = []): { item: MenuItem; parents: MenuItem[] }[] {
  return items.flatMap((item) => [{ item, parents }, ...flattenMenu(item.children, [...parents, item])]);
}

/** The menu item whose path is `pathname`, with its ancestors (for the breadcrumb). */
export function findMenuItem(items: MenuItem[], pathname: string): { item: MenuItem; parents: MenuItem[] } | undefined {
  return flattenMenu(items).find(({ item }) => item.path === pathname);
}

/** Routes built in code (spec section 2 "Fixed routes") win over menu items with the same path. */
export const FIXED_PATHS = new Set(["/", "/frontend", "/backend", "/user", "/share", "/source", "/test", "/redirect"]);

export interface FixedMeta {
  pattern: string;
  titleKey: string;
}

/** Titles of the fixed routes that render inside an area layout. */
export const FIXED_META: FixedMeta[] = [
  { pattern: "/frontend/search", titleKey: "menu.search" },
  { pattern: "/frontend/:library/:folderId?", titleKey: "route.frontend.library" },
];

export interface RouteMeta {
  titleKey?: string;
  /** Title keys of the matched chain, outermost first (the breadcrumb). */
  trail: { titleKey: string; path: string }[];
}

export function resolveRouteMeta(pathname: string, menus: MenuItem[]): RouteMeta {
  const found = findMenuItem(menus, pathname);
  if (found) {
    const chain = [...found.parents, found.item];
    return { titleKey: found.item.title, trail: chain.map((item) => ({ titleKey: item.title, path: item.path })) };
  }
  const fixed = FIXED_META.find((meta) => matchPath(meta.pattern, pathname));
  if (fixed) return { titleKey: fixed.titleKey, trail: [{ titleKey: fixed.titleKey, path: pathname }] };
  return { trail: [] };
}

/** Spec section 4: a failed menu load goes to the error page of its HTTP status. */
export function errorPageFor(status: number | null | undefined): "/403" | "/404" | "/500" {
  if (status === 403 || status === 401) return "/403";
  if (status === 404) return "/404";
  return "/500";
}
