import type { Db } from "../../db/database.js";
import type { AuthenticatedUser } from "./auth.types.js";
import type { Action } from "./permissions.js";

/** The reads and writes the API auth hook makes on every call. */
export class AuthRepository {
  constructor(private readonly db: Db) {}

  async loadUser(id: string): Promise<AuthenticatedUser | undefined> {
    const row = await this.db.kysely
      .selectFrom("users")
      .leftJoin("roles", (join) => join.onRef("roles.id", "=", "users.role_id").on("roles.deleted", "=", false))
      .select([
        "users.id",
        "users.username",
        "users.name",
        "users.avatar_url",
        "users.admin",
        "users.status",
        "users.role_id",
        "users.last_access_ip",
        "users.last_access_time",
        "roles.status as role_status",
      ])
      .where("users.id", "=", id)
      .executeTakeFirst();
    if (!row) return undefined;
    const permissions = new Map<string, Set<Action>>();
    if (row.role_id && row.role_status === 1) {
      const grants = await this.db.kysely
        .selectFrom("role_permissions")
        .select(["permission_id", "actions"])
        .where("role_id", "=", row.role_id)
        .execute();
      for (const grant of grants) {
        permissions.set(grant.permission_id, new Set(this.db.adapter.readJson<Action[]>(grant.actions)));
      }
    }
    return {
      id: row.id,
      username: row.username,
      name: row.name,
      avatarUrl: row.avatar_url,
      admin: this.db.adapter.readBoolean(row.admin),
      status: row.status,
      roleId: row.role_id,
      lastAccessIp: row.last_access_ip,
      lastAccessTime: row.last_access_time,
      permissions,
    };
  }

  /**
   * Records the last access unless another request (in any process) did so
   * after `staleBefore`: at most one write per user per interval.
   */
  async recordAccess(id: string, ip: string, now: string, staleBefore: string): Promise<boolean> {
    const result = await this.db.kysely
      .updateTable("users")
      .set({ last_access_ip: ip, last_access_time: now })
      .where("id", "=", id)
      .where((eb) => eb.or([eb("last_access_time", "is", null), eb("last_access_time", "<", staleBefore)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
