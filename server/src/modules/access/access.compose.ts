import type { Db } from "../../db/database.js";
import { ApiTokensRepository } from "../api-tokens/api-tokens.repository.js";
import { ApiTokensService } from "../api-tokens/api-tokens.service.js";
import { AuthRepository } from "../auth/auth.repository.js";
import { UsersRepository } from "../users/users.repository.js";
import { UsersService } from "../users/users.service.js";
import { GrantsRepository } from "./grants.repository.js";
import { GrantsService } from "./grants.service.js";
import { LibraryAccess } from "./library-access.js";
import { RolesRepository } from "./roles.repository.js";
import { RolesService } from "./roles.service.js";
import { UserAdminRepository } from "./user-admin.repository.js";
import { UserAdminService } from "./user-admin.service.js";

export interface AccessControl {
  authUsers: AuthRepository;
  libraries: LibraryAccess;
  roles: RolesService;
  grants: GrantsService;
  users: UserAdminService;
  apiTokens: ApiTokensService;
}

/** Builds the services of roles, grants, user administration and API tokens (called once by app.ts). */
export function buildAccessControl(db: Db): AccessControl {
  const roles = new RolesRepository(db);
  const grants = new GrantsRepository(db);
  const accounts = new UserAdminRepository(db);
  return {
    authUsers: new AuthRepository(db),
    libraries: new LibraryAccess(grants),
    roles: new RolesService(roles),
    grants: new GrantsService(grants, roles, accounts),
    users: new UserAdminService(accounts, new UsersService(new UsersRepository(db)), roles),
    apiTokens: new ApiTokensService(new ApiTokensRepository(db)),
  };
}
