import type { AuthUsers } from "../auth/auth.plugin.js";
import type { AuthenticatedUser } from "../auth/auth.types.js";
import type { UsersService } from "../users/users.service.js";
import type { RolesService } from "./roles.service.js";

/**
 * The accounts the API auth hook reads on every call: the users module's
 * account and what its role grants while enabled. Two queries by key, as
 * before the users module became the only way into `users` (one for the
 * account, one for the role's permissions).
 */
export class AuthenticatedUsers implements AuthUsers {
  constructor(
    private readonly users: Pick<UsersService, "account" | "recordAccess">,
    private readonly roles: Pick<RolesService, "permissionSet">,
  ) {}

  async loadUser(id: string): Promise<AuthenticatedUser | undefined> {
    const account = await this.users.account(id);
    if (!account) return undefined;
    return {
      id: account.id,
      username: account.username,
      name: account.name,
      avatarUrl: account.avatarUrl,
      admin: account.admin,
      status: account.status,
      roleId: account.roleId,
      lastAccessIp: account.lastAccessIp,
      lastAccessTime: account.lastAccessTime,
      permissions: await this.roles.permissionSet(account.roleId),
    };
  }

  recordAccess(id: string, ip: string, now: string, staleBefore: string): Promise<boolean> {
    return this.users.recordAccess(id, ip, now, staleBefore);
  }
}
