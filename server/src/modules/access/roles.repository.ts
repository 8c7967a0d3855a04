import { randomUUID } from "node:crypto";
import type { Db } from "../../db/database.js";
import { keywordPattern, type PageQuery } from "../../http/envelope.js";
import type { Action, PermissionSet } from "../auth/permissions.js";

export interface RoleRecord {
  id: string;
  name: string;
  describe: string;
  status: number;
  creatorId: string | null;
  createTime: string;
  deleted: boolean;
}

export interface RolePermissionRecord {
  roleId: string;
  permissionId: string;
  permissionName: string;
  actions: Action[];
  dataAccess: string | null;
}

export interface NewRole {
  name: string;
  describe: string;
  status: number;
  creatorId: string | null;
}

export interface PermissionInput {
  permissionId: string;
  actions: Action[];
  dataAccess?: string | null;
}

export class RolesRepository {
  constructor(private readonly db: Db) {}

  #toRole(row: {
    id: string;
    name: string;
    describe: string;
    status: number;
    creator_id: string | null;
    create_time: string;
    deleted: boolean | number;
  }): RoleRecord {
    return {
      id: row.id,
      name: row.name,
      describe: row.describe,
      status: row.status,
      creatorId: row.creator_id,
      createTime: row.create_time,
      deleted: this.db.adapter.readBoolean(row.deleted),
    };
  }

  async list(query: PageQuery): Promise<{ roles: RoleRecord[]; total: number }> {
    let base = this.db.kysely.selectFrom("roles").where("deleted", "=", false);
    if (query.keyword) {
      const pattern = keywordPattern(query.keyword);
      base = base.where((eb) =>
        eb.or([eb(eb.fn("lower", ["name"]), "like", pattern), eb(eb.fn("lower", ["id"]), "like", pattern)]),
      );
    }
    const { count } = await base.select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow();
    const rows = await base
      .selectAll()
      .orderBy("create_time")
      .orderBy("id")
      .limit(query.size)
      .offset(query.page * query.size)
      .execute();
    return { roles: rows.map((row) => this.#toRole(row)), total: Number(count) };
  }

  async findById(id: string): Promise<RoleRecord | undefined> {
    const row = await this.db.kysely
      .selectFrom("roles")
      .selectAll()
      .where("id", "=", id)
      .where("deleted", "=", false)
      .executeTakeFirst();
    return row && this.#toRole(row);
  }

  async permissionsOf(roleIds: string[]): Promise<RolePermissionRecord[]> {
    if (roleIds.length === 0) return [];
    const rows = await this.db.kysely
      .selectFrom("role_permissions")
      .selectAll()
      .where("role_id", "in", roleIds)
      .orderBy("role_id")
      .orderBy("permission_id")
      .execute();
    return rows.map((row) => ({
      roleId: row.role_id,
      permissionId: row.permission_id,
      permissionName: row.permission_name,
      actions: this.db.adapter.readJson<Action[]>(row.actions),
      dataAccess: row.data_access,
    }));
  }

  async insert(role: NewRole, permissions: PermissionInput[], now: string): Promise<string> {
    const id = randomUUID();
    await this.db.kysely.transaction().execute(async (trx) => {
      await trx
        .insertInto("roles")
        .values({
          id,
          name: role.name,
          describe: role.describe,
          status: role.status,
          creator_id: role.creatorId,
          create_time: now,
          deleted: false,
        })
        .execute();
      await this.#writePermissions(trx, id, permissions);
    });
    return id;
  }

  async update(
    id: string,
    changes: { name?: string; describe?: string; status?: number },
    permissions: PermissionInput[] | undefined,
  ): Promise<void> {
    await this.db.kysely.transaction().execute(async (trx) => {
      if (Object.keys(changes).length > 0) await trx.updateTable("roles").set(changes).where("id", "=", id).execute();
      if (permissions) {
        await trx.deleteFrom("role_permissions").where("role_id", "=", id).execute();
        await this.#writePermissions(trx, id, permissions);
      }
    });
  }

  async #writePermissions(trx: Db["kysely"], roleId: string, permissions: PermissionInput[]): Promise<void> {
    if (permissions.length === 0) return;
    await trx
      .insertInto("role_permissions")
      .values(
        permissions.map((permission) => ({
          role_id: roleId,
          permission_id: permission.permissionId,
          permission_name: `menu.${permission.permissionId}`,
          actions: this.db.adapter.writeJson(permission.actions),
          data_access: permission.dataAccess ?? null,
        })),
      )
      .execute();
  }

  /** Soft delete (the Role entity keeps a `deleted` flag); its library grants go with it. */
  async softDelete(id: string): Promise<void> {
    await this.db.kysely.transaction().execute(async (trx) => {
      await trx.updateTable("roles").set({ deleted: true }).where("id", "=", id).execute();
      await trx.deleteFrom("role_permissions").where("role_id", "=", id).execute();
      await trx.deleteFrom("library_grants").where("role_id", "=", id).execute();
    });
  }

  /**
   * What a role grants while it is enabled (and not deleted), in one query:
   * the API auth hook asks it on every call.
   */
  async activePermissions(roleId: string): Promise<PermissionSet> {
    const rows = await this.db.kysely
      .selectFrom("roles")
      .innerJoin("role_permissions", "role_permissions.role_id", "roles.id")
      .select(["role_permissions.permission_id", "role_permissions.actions"])
      .where("roles.id", "=", roleId)
      .where("roles.deleted", "=", false)
      .where("roles.status", "=", 1)
      .execute();
    return new Map(
      rows.map((row) => [row.permission_id, new Set(this.db.adapter.readJson<Action[]>(row.actions))] as const),
    );
  }

  /** The names of these roles, deleted ones too (an account may still name one). */
  async namesOf(roleIds: string[]): Promise<Map<string, string>> {
    if (roleIds.length === 0) return new Map();
    const rows = await this.db.kysely.selectFrom("roles").select(["id", "name"]).where("id", "in", roleIds).execute();
    return new Map(rows.map((row) => [row.id, row.name]));
  }
}
