import type { Db } from "../../db/database.js";
import type { UsersService } from "../users/users.service.js";
import { AccessCaches } from "./access-caches.js";
import { AuthenticatedUsers } from "./authenticated-users.js";
import { GrantsRepository } from "./grants.repository.js";
import { GrantsService } from "./grants.service.js";
import { LibraryAccess } from "./library-access.js";
import { RolesRepository } from "./roles.repository.js";
import { type RoleDirectory, RolesService } from "./roles.service.js";
import { UserAdminService } from "./user-admin.service.js";

export interface AccessControl {
  /** What the API auth hook reads on every call (the account and its role's permissions). */
  authUsers: AuthenticatedUsers;
  libraries: LibraryAccess;
  roles: RolesService;
  grants: GrantsService;
  users: UserAdminService;
  /** Sign-ins and library levels kept a few seconds; the API auth hook reads them, writers drop them. */
  caches: AccessCaches;
}

export interface AccessDependencies {
  /** The users module: the only way into `users`. */
  users: UsersService;
  /** The menus module's keys: the permissions roles grant. */
  menus: { permissionKeys: RoleDirectory["permissionKeys"] };
  /** How long a sign-in and a library level are kept (0: not at all). */
  cacheTtlMs: number;
}

/** Builds the services of roles, grants and user administration (called once by app.ts). */
export function buildAccessControl(db: Db, deps: AccessDependencies): AccessControl {
  const roleRows = new RolesRepository(db);
  const grants = new GrantsRepository(db);
  const caches = new AccessCaches(db.notifications, deps.cacheTtlMs);
  const roles = new RolesService(roleRows, {
    permissionKeys: () => deps.menus.permissionKeys(),
    holders: (roleId) => deps.users.countWithRole(roleId),
    changed: caches,
  });
  return {
    authUsers: new AuthenticatedUsers(deps.users, roles),
    libraries: new LibraryAccess(grants, caches.libraryLevels, caches.heldGrants),
    roles,
    grants: new GrantsService(grants, roleRows, deps.users, caches),
    users: new UserAdminService(deps.users, roleRows, caches),
    caches,
  };
}
