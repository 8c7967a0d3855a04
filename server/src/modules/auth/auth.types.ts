import type { FastifyRequest } from "fastify";
import type { UserAccount } from "../users/users.repository.js";
import type { Principal } from "./bearer.js";
import type { Action, LibraryLevel, PermissionKey, PermissionSet } from "./permissions.js";

/**
 * What an API route needs, declared in its route config. Every route under
 * /dams/api/v1 declares exactly one of `public: true` or `access`; the API
 * auth hook refuses to start otherwise.
 *
 * - `"authenticated"`: any signed-in, enabled user;
 * - `"admin"`: users.admin;
 * - `{ permission, action }`: the user's role grants `action` on `permission`
 *   (a menu key, spec section 6). Administrators pass every check;
 * - `"share"`: a visitor holding a share link's token (header `X-Share-Token`),
 *   never a user: the share resolver (modules/shares) decides, and the route
 *   reads `request.shareVisit`. Such a route answers 401 `share_locked` until
 *   the visitor has unlocked a password-protected share, unless its config
 *   says `shareBeforeUnlock: true` (the share's cover page, the password form).
 */
export type RouteAccess = "authenticated" | "admin" | "share" | { permission: PermissionKey; action: Action };

/** A share link's visitor, as the share resolver found them for this request. */
export interface ShareVisit {
  shareId: string;
  /** No password, or the visitor's share session proves they gave it. */
  unlocked: boolean;
}

/**
 * Answers for the `share` kind of access: the share the request's token
 * opens, or a refusal (the same 410 for unknown, expired and revoked links;
 * 429 when the address guesses too much; 401 while locked and `needsUnlock`).
 */
export interface ShareVisitResolver {
  resolve(request: FastifyRequest, needsUnlock: boolean): Promise<ShareVisit>;
}

/** The route's `param` names a library; the caller needs `level` on it (404 when they cannot even read it). */
export interface LibraryRule {
  param: string;
  level: LibraryLevel;
}

/** The signed-in user as the hook loaded them for this request. */
export interface AuthenticatedUser extends Omit<UserAccount, "createdAt"> {
  /** Empty when the user has no role, or the role is disabled. */
  permissions: PermissionSet;
}

declare module "fastify" {
  interface FastifyContextConfig {
    public?: boolean;
    access?: RouteAccess;
    library?: LibraryRule;
    /** With access "share": callable before a password-protected share is unlocked. */
    shareBeforeUnlock?: boolean;
  }

  interface FastifyRequest {
    principal: Principal | null;
    currentUser: AuthenticatedUser | null;
    /** The share link's visitor, on routes with access "share". */
    shareVisit: ShareVisit | null;
  }
}
