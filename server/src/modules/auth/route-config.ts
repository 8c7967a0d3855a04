import type { LibraryRule, RouteAccess } from "./auth.types.js";
import type { Action, LibraryLevel, PermissionKey } from "./permissions.js";

/**
 * The config of a route on one library's stories: who may call it, and the
 * `level` they need on the library its `libraryId` path parameter names
 * (404 when they cannot even read it, 403 when they need more).
 */
export function inLibrary(access: RouteAccess, level: LibraryLevel): { access: RouteAccess; library: LibraryRule } {
  return { access, library: { param: "libraryId", level } };
}

/** The config of a route that needs `action` on `permission` (a menu key, spec section 6). */
export function can(permission: PermissionKey, action: Action): { access: RouteAccess } {
  return { access: { permission, action } };
}
