import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { Db } from "../../db/database.js";
import type { PageQuery } from "../../http/envelope.js";
import type { Action } from "../auth/permissions.js";

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

/** A permission roles can grant: a menu key, with its area. */
export interface PermissionCatalogueEntry {
  permissionId: string;
  permissionName: string;
  area: "user" | "admin";
}

export function keywordPattern(keyword: string): string {
  return `%${keyword.toLowerCase()}%`;
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

  async countUsers(roleId: string): Promise<number> {
    const { count } = await this.db.kysely
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("role_id", "=", roleId)
      .executeTakeFirstOrThrow();
    return Number(count);
  }

  /** Every permission a role can hold: the menu keys of both areas, in menu order. */
  async permissionCatalogue(): Promise<PermissionCatalogueEntry[]> {
    const rows = await this.db.kysely
      .selectFrom("menus")
      .select(["area", "key"])
      .orderBy(sql`case when area = 'user' then 0 else 1 end`)
      .orderBy("sort_order")
      .orderBy("key")
      .execute();
    return rows.map((row) => ({ permissionId: row.key, permissionName: `menu.${row.key}`, area: row.area }));
  }
}
