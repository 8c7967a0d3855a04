import type { LibraryRule, RouteAccess } from "./auth.types.js";
import type { LibraryLevel } from "./permissions.js";

/**
 * The config of a route on one library's stories: who may call it, and the
 * `level` they need on the library its `libraryId` path parameter names
 * (404 when they cannot even read it, 403 when they need more).
 */
export function inLibrary(access: RouteAccess, level: LibraryLevel): { access: RouteAccess; library: LibraryRule } {
  return { access, library: { param: "libraryId", level } };
}
