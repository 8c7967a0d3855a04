import type { Action, LibraryLevel, PermissionSet } from "../access/permissions.js";
import type { Principal } from "./bearer.js";

/**
 * What an API route needs, declared in its route config. Every route under
 * /dams/api/v1 declares exactly one of `public: true` or `access`; the API
 * auth hook refuses to start otherwise.
 *
 * - `"authenticated"`: any signed-in, enabled user;
 * - `"admin"`: users.admin;
 * - `{ permission, action }`: the user's role grants `action` on `permission`
 *   (a menu key, spec section 6). Administrators pass every check.
 */
export type RouteAccess = "authenticated" | "admin" | { permission: string; action: Action };

/** The route's `param` names a library; the caller needs `level` on it (404 when they cannot even read it). */
export interface LibraryRule {
  param: string;
  level: LibraryLevel;
}

/** The signed-in user as the hook loaded them for this request. */
export interface AuthenticatedUser {
  id: string;
  username: string;
  name: string;
  avatarUrl: string | null;
  admin: boolean;
  status: number;
  roleId: string | null;
  lastAccessIp: string | null;
  lastAccessTime: string | null;
  /** Empty when the user has no role, or the role is disabled. */
  permissions: PermissionSet;
}

declare module "fastify" {
  interface FastifyContextConfig {
    public?: boolean;
    access?: RouteAccess;
    library?: LibraryRule;
  }

  interface FastifyRequest {
    principal: Principal | null;
    currentUser: AuthenticatedUser | null;
  }
}
