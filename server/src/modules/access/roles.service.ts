import type { PageQuery } from "../../http/envelope.js";
import { Conflict, Forbidden, Invalid, NotFound } from "../../http/errors.js";
import {
  ACTION_DESCRIPTIONS,
  ACTIONS,
  type Action,
  BUILT_IN_ROLES,
  firstUnheld,
  type PermissionSet,
} from "../auth/permissions.js";
import type { PermissionInput, RolePermissionRecord, RoleRecord, RolesRepository } from "./roles.repository.js";
import type { CreateRoleBody, RolePermissionView, RoleView, UpdateRoleBody } from "./roles.schema.js";

export function actionEntitySet(actions: readonly Action[]) {
  return actions.map((action) => ({ action, describe: ACTION_DESCRIPTIONS[action], defaultCheck: false }));
}

export function toPermissionView(permission: RolePermissionRecord): RolePermissionView {
  const entities = actionEntitySet(permission.actions);
  return {
    roleId: permission.roleId,
    permissionId: permission.permissionId,
    permissionName: permission.permissionName,
    actions: JSON.stringify(entities),
    actionEntitySet: entities,
    actionList: [...permission.actions],
    dataAccess: permission.dataAccess,
  };
}

export function toRoleView(role: RoleRecord, permissions: RolePermissionRecord[]): RoleView {
  return {
    id: role.id,
    name: role.name,
    describe: role.describe,
    status: role.status,
    creatorId: role.creatorId,
    createTime: role.createTime,
    deleted: role.deleted ? 1 : 0,
    permissions: permissions.filter((permission) => permission.roleId === role.id).map(toPermissionView),
  };
}

/** Who is changing roles: used to stop a non-administrator from widening the role they hold. */
export interface RoleEditor {
  id: string;
  admin: boolean;
  roleId: string | null;
  permissions: PermissionSet;
}

/** Refuses a non-administrator who would put into a role a permission they do not hold. */
export function assertWithinHolder(editor: RoleEditor, wanted: readonly PermissionInput[]): void {
  if (editor.admin) return;
  const unheld = firstUnheld(editor.permissions, wanted);
  if (unheld) throw new Forbidden(`you cannot grant ${unheld}, which you do not hold yourself`, "permission_not_held");
}

/** What roles need from other modules: the menus' keys (the permissions) and the users' roles. */
export interface RoleDirectory {
  /** Every menu key with its area, the user area first, in menu order (the menus module's service). */
  permissionKeys(): Promise<{ key: string; area: "user" | "admin" }[]>;
  /** How many accounts hold a role (the users module's service). */
  holders(roleId: string): Promise<number>;
  /** Drops what is cached about a role's holders (their permissions; a deleted role's grants). */
  changed?: { roleChanged(roleId: string): Promise<void>; grantsChanged(): Promise<void> };
}

export class RolesService {
  constructor(
    private readonly roles: RolesRepository,
    private readonly directory: RoleDirectory,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async list(query: PageQuery): Promise<{ content: RoleView[]; total: number }> {
    const { roles, total } = await this.roles.list(query);
    const permissions = await this.roles.permissionsOf(roles.map((role) => role.id));
    return { content: roles.map((role) => toRoleView(role, permissions)), total };
  }

  /** What a role allows, as the auth hook reads it: nothing for no role, a disabled or a deleted one. */
  async permissionSet(roleId: string | null): Promise<PermissionSet> {
    return roleId ? this.roles.activePermissions(roleId) : new Map();
  }

  async get(id: string): Promise<RoleView> {
    const role = await this.roles.findById(id);
    if (!role) throw new NotFound(`role ${id} does not exist`, "role_not_found");
    return toRoleView(role, await this.roles.permissionsOf([id]));
  }

  async catalogue() {
    const keys = await this.directory.permissionKeys();
    return keys.map(({ key, area }) => ({
      permissionId: key,
      permissionName: `menu.${key}`,
      area,
      actions: actionEntitySet(ACTIONS),
    }));
  }

  async create(input: CreateRoleBody, editor: RoleEditor): Promise<RoleView> {
    const permissions = await this.#checkPermissions(input.permissions);
    assertWithinHolder(editor, permissions);
    const id = await this.roles.insert(
      { name: input.name, describe: input.describe, status: input.status, creatorId: editor.id },
      permissions,
      this.clock().toISOString(),
    );
    return this.get(id);
  }

  async update(id: string, input: UpdateRoleBody, editor: RoleEditor): Promise<RoleView> {
    await this.get(id);
    if (!editor.admin && editor.roleId === id) {
      throw new Forbidden("only an administrator may change the role they hold", "own_role");
    }
    const permissions = input.permissions && (await this.#checkPermissions(input.permissions));
    if (permissions) assertWithinHolder(editor, permissions);
    const { permissions: _, ...changes } = input;
    await this.roles.update(id, changes, permissions);
    await this.directory.changed?.roleChanged(id);
    return this.get(id);
  }

  async delete(id: string): Promise<void> {
    await this.get(id);
    if (id === BUILT_IN_ROLES.administrator) {
      throw new Conflict("the administrator role cannot be deleted", "role_built_in");
    }
    const holders = await this.directory.holders(id);
    if (holders > 0) {
      throw new Conflict(
        `role ${id} is held by ${holders} user${holders === 1 ? "" : "s"}; give them another role first`,
        "role_in_use",
      ).withMessageCode("role.inUse", { count: holders });
    }
    await this.roles.softDelete(id);
    await this.directory.changed?.roleChanged(id);
    await this.directory.changed?.grantsChanged();
  }

  /** Known permission ids only, each once; the message names the offending field. */
  async #checkPermissions(permissions: PermissionInput[]): Promise<PermissionInput[]> {
    const known = new Set((await this.directory.permissionKeys()).map((entry) => entry.key));
    const seen = new Set<string>();
    permissions.forEach((permission, index) => {
      if (!known.has(permission.permissionId)) {
        throw new Invalid(
          `body.permissions.${index}.permissionId: unknown permission ${permission.permissionId}`,
          "unknown_permission",
        );
      }
      if (seen.has(permission.permissionId)) {
        throw new Invalid(
          `body.permissions.${index}.permissionId: ${permission.permissionId} is listed twice`,
          "duplicate_permission",
        );
      }
      seen.add(permission.permissionId);
    });
    return permissions.map((permission) => ({ ...permission, actions: [...new Set(permission.actions)] }));
  }
}
