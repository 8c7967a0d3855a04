import type { PageQuery } from "../../http/envelope.js";
import { Forbidden, Invalid, NotFound } from "../../http/errors.js";
import type { RegistrationSettings } from "../users/registration.js";
import type { UserAccount } from "../users/users.repository.js";
import type { UsersService } from "../users/users.service.js";
import type { RolesRepository } from "./roles.repository.js";
import { assertWithinHolder, type RoleEditor } from "./roles.service.js";
import type { CreateUserBody, UpdateUserBody, UserAccountView } from "./user-admin.schema.js";

/** Who is acting. Holding manage.userrole.user does not make one an administrator. */
export type Actor = RoleEditor;

/** An account as the back area shows it: with its role's name. */
type UserAccountRecord = UserAccount & { roleName: string | null };

function toView(user: UserAccountRecord): UserAccountView {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    avatarUrl: user.avatarUrl,
    admin: user.admin,
    status: user.status,
    roleId: user.roleId,
    roleName: user.roleName,
    lastAccessIP: user.lastAccessIp,
    lastAccessTime: user.lastAccessTime,
    createTime: user.createdAt,
  };
}

function withRoleName(account: UserAccount, names: Map<string, string>): UserAccountRecord {
  return { ...account, roleName: account.roleId ? (names.get(account.roleId) ?? null) : null };
}

/**
 * The back area's user administration. Escalation rules: only an
 * administrator grants or removes the admin flag or touches an administrator's
 * account; nobody changes their own role or admin flag, or disables
 * themselves (no lock-out by accident).
 */
export class UserAdminService {
  constructor(
    private readonly users: UsersService,
    private readonly roles: RolesRepository,
    /** Drops what is cached about an account (its sign-ins, its library levels) on every node. */
    private readonly changed?: { userChanged(userId: string): Promise<void> },
  ) {}

  async list(query: PageQuery): Promise<{ content: UserAccountView[]; total: number }> {
    const { users, total } = await this.users.accounts(query);
    const names = await this.roles.namesOf([...new Set(users.flatMap((user) => user.roleId ?? []))]);
    return { content: users.map((user) => toView(withRoleName(user, names))), total };
  }

  async create(input: CreateUserBody, actor: Actor): Promise<UserAccountView> {
    if (input.admin && !actor.admin)
      throw new Forbidden("only an administrator may create an administrator", "admin_only");
    if (input.roleId) await this.#checkRole(input.roleId, actor);
    const user = await this.users.createUser(input);
    return toView((await this.#account(user.id))!);
  }

  async update(id: string, input: UpdateUserBody, actor: Actor): Promise<UserAccountView> {
    const target = await this.#target(id, actor);
    if (input.admin !== undefined && input.admin !== target.admin) {
      if (!actor.admin) throw new Forbidden("only an administrator may change the admin flag", "admin_only");
      if (target.id === actor.id) throw new Forbidden("you cannot change your own admin flag", "own_account");
    }
    if (input.roleId !== undefined && input.roleId !== target.roleId) {
      if (target.id === actor.id) throw new Forbidden("you cannot change your own role", "own_account");
      await this.#checkRole(input.roleId, actor);
    }
    await this.users.updateAccount(id, {
      name: input.name,
      avatar_url: input.avatarUrl,
      role_id: input.roleId,
      admin: input.admin,
    });
    await this.changed?.userChanged(id);
    return toView((await this.#account(id))!);
  }

  async setEnabled(id: string, enabled: boolean, actor: Actor): Promise<UserAccountView> {
    const target = await this.#target(id, actor);
    if (!enabled && target.id === actor.id) throw new Forbidden("you cannot disable your own account", "own_account");
    await this.users.updateAccount(id, { status: enabled ? 1 : 0 });
    await this.changed?.userChanged(id);
    return toView((await this.#account(id))!);
  }

  /** Self-registration as set (docs/security.md, "Accounts"). */
  registration(): Promise<RegistrationSettings> {
    return this.users.registrationSettings();
  }

  /**
   * Sets self-registration. The default role must exist; a non-administrator
   * may not make strangers holders of a role with more than they hold.
   */
  async saveRegistration(
    settings: Pick<RegistrationSettings, "mode" | "defaultRoleId">,
    actor: Actor & { username: string },
  ): Promise<RegistrationSettings> {
    const role = await this.roles.findById(settings.defaultRoleId);
    if (!role) throw new Invalid(`defaultRoleId: role ${settings.defaultRoleId} does not exist`, "role_not_found");
    assertWithinHolder(actor, await this.roles.permissionsOf([role.id]));
    return this.users.saveRegistrationSettings(settings, actor.username);
  }

  async resetPassword(id: string, password: string, actor: Actor): Promise<void> {
    const target = await this.#target(id, actor);
    await this.users.setPassword(target.username, password);
  }

  async #target(id: string, actor: Actor): Promise<UserAccountRecord> {
    const target = await this.#account(id);
    if (!target) throw new NotFound(`user ${id} does not exist`, "user_not_found");
    if (target.admin && !actor.admin && target.id !== actor.id) {
      throw new Forbidden("only an administrator may change an administrator's account", "admin_only");
    }
    return target;
  }

  async #account(id: string): Promise<UserAccountRecord | undefined> {
    const account = await this.users.account(id);
    return account && withRoleName(account, await this.roles.namesOf(account.roleId ? [account.roleId] : []));
  }

  /** The role exists, and a non-administrator holds everything it grants. */
  async #checkRole(roleId: string, actor: Actor): Promise<void> {
    if (!(await this.roles.findById(roleId)))
      throw new Invalid(`body.roleId: role ${roleId} does not exist`, "role_not_found");
    assertWithinHolder(actor, await this.roles.permissionsOf([roleId]));
  }
}
