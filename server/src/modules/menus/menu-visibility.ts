import { isAdminOnlyPermission, type PermissionSet } from "../auth/permissions.js";
import type { MenuItem } from "../menus/menus.schema.js";

export interface MenuViewer {
  admin: boolean;
  permissions: PermissionSet;
}

/**
 * The menu a user may see: items whose key (= permissionId) their role holds;
 * a group stays when any child stays, and then redirects to its first visible
 * child. The system-settings group is for administrators only; administrators
 * (users.admin) see everything, as the server lets them do everything.
 */
export function visibleMenu(items: MenuItem[], viewer: MenuViewer): MenuItem[] {
  if (viewer.admin) return items;
  return items.flatMap((item) => {
    if (isAdminOnlyPermission(item.key) && !viewer.admin) return [];
    if (item.children.length === 0) return viewer.permissions.has(item.key) ? [item] : [];
    const children = visibleMenu(item.children, viewer);
    if (children.length === 0) return [];
    const firstVisible = children.find((child) => !child.hidden) ?? children[0]!;
    const redirect = item.redirect === null ? null : firstVisible.path;
    return [{ ...item, redirect, children }];
  });
}
