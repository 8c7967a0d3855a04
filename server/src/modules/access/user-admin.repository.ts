import type { Db } from "../../db/database.js";
import type { PageQuery } from "../../http/envelope.js";
import { keywordPattern } from "./roles.repository.js";

export interface UserAccountRecord {
  id: string;
  username: string;
  name: string;
  avatarUrl: string | null;
  admin: boolean;
  status: number;
  roleId: string | null;
  roleName: string | null;
  lastAccessIp: string | null;
  lastAccessTime: string | null;
  createdAt: string;
}

export interface UserAccountChanges {
  name?: string;
  avatar_url?: string | null;
  role_id?: string;
  admin?: boolean;
  status?: number;
}

interface AccountRow {
  id: string;
  username: string;
  name: string;
  avatar_url: string | null;
  admin: boolean | number;
  status: number;
  role_id: string | null;
  role_name: string | null;
  last_access_ip: string | null;
  last_access_time: string | null;
  created_at: string;
}

/** The user-administration reads and writes of the back area (users × roles). */
export class UserAdminRepository {
  constructor(private readonly db: Db) {}

  #select() {
    return this.db.kysely
      .selectFrom("users")
      .leftJoin("roles", "roles.id", "users.role_id")
      .select([
        "users.id",
        "users.username",
        "users.name",
        "users.avatar_url",
        "users.admin",
        "users.status",
        "users.role_id",
        "roles.name as role_name",
        "users.last_access_ip",
        "users.last_access_time",
        "users.created_at",
      ]);
  }

  #toRecord(row: AccountRow): UserAccountRecord {
    return {
      id: row.id,
      username: row.username,
      name: row.name,
      avatarUrl: row.avatar_url,
      admin: this.db.adapter.readBoolean(row.admin),
      status: row.status,
      roleId: row.role_id,
      roleName: row.role_name,
      lastAccessIp: row.last_access_ip,
      lastAccessTime: row.last_access_time,
      createdAt: row.created_at,
    };
  }

  async list(query: PageQuery): Promise<{ users: UserAccountRecord[]; total: number }> {
    let base = this.db.kysely.selectFrom("users");
    if (query.keyword) {
      const pattern = keywordPattern(query.keyword);
      base = base.where((eb) =>
        eb.or([eb(eb.fn("lower", ["username"]), "like", pattern), eb(eb.fn("lower", ["name"]), "like", pattern)]),
      );
    }
    const { count } = await base.select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow();
    let page = this.#select();
    if (query.keyword) {
      const pattern = keywordPattern(query.keyword);
      page = page.where((eb) =>
        eb.or([
          eb(eb.fn("lower", ["users.username"]), "like", pattern),
          eb(eb.fn("lower", ["users.name"]), "like", pattern),
        ]),
      );
    }
    const rows = await page
      .orderBy("users.username")
      .limit(query.size)
      .offset(query.page * query.size)
      .execute();
    return { users: rows.map((row) => this.#toRecord(row)), total: Number(count) };
  }

  async findById(id: string): Promise<UserAccountRecord | undefined> {
    const row = await this.#select().where("users.id", "=", id).executeTakeFirst();
    return row && this.#toRecord(row);
  }

  async update(id: string, changes: UserAccountChanges, now: string): Promise<void> {
    await this.db.kysely
      .updateTable("users")
      .set({ ...changes, updated_at: now })
      .where("id", "=", id)
      .execute();
  }
}
