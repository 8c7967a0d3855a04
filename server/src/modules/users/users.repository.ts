import type { Db } from "../../db/database.js";
import type { NewUserRow, UserRow } from "../../db/schema.js";
import { keywordPattern, type PageQuery } from "../../http/envelope.js";
import { type RegistrationSettings, toRegistrationSettings } from "./registration.js";

export interface UserRecord extends Omit<UserRow, "admin"> {
  admin: boolean;
}

/** What others may know of an account: everything but its secrets (no password hash, no external subject). */
export interface UserAccount {
  id: string;
  username: string;
  name: string;
  avatarUrl: string | null;
  admin: boolean;
  status: number;
  roleId: string | null;
  lastAccessIp: string | null;
  lastAccessTime: string | null;
  createdAt: string;
}

/** The columns user administration changes. */
export interface UserAccountChanges {
  name?: string;
  avatar_url?: string | null;
  role_id?: string;
  admin?: boolean;
  status?: number;
}

const ACCOUNT_COLUMNS = [
  "id",
  "username",
  "name",
  "avatar_url",
  "admin",
  "status",
  "role_id",
  "last_access_ip",
  "last_access_time",
  "created_at",
] as const;

export class UsersRepository {
  constructor(private readonly db: Db) {}

  /** The one row of registration_settings (migration 0029); without it nobody registers. */
  async registrationSettings(): Promise<RegistrationSettings> {
    const row = await this.db.kysely
      .selectFrom("registration_settings")
      .selectAll()
      .where("id", "=", 1)
      .executeTakeFirst();
    if (!row) return { mode: "off", defaultRoleId: "viewer", updatedBy: null, updatedAt: new Date(0).toISOString() };
    return toRegistrationSettings(row);
  }

  async saveRegistrationSettings(
    settings: Pick<RegistrationSettings, "mode" | "defaultRoleId">,
    by: string,
    at: string,
  ): Promise<void> {
    await this.db.kysely
      .updateTable("registration_settings")
      .set({ mode: settings.mode, default_role_id: settings.defaultRoleId, updated_by: by, updated_at: at })
      .where("id", "=", 1)
      .execute();
  }

  #toRecord(row: UserRow): UserRecord {
    return { ...row, admin: this.db.adapter.readBoolean(row.admin) };
  }

  async findByUsername(username: string): Promise<UserRecord | undefined> {
    const row = await this.db.kysely
      .selectFrom("users")
      .selectAll()
      .where("username", "=", username)
      .executeTakeFirst();
    return row && this.#toRecord(row);
  }

  async insert(user: NewUserRow): Promise<UserRecord> {
    await this.db.kysely.insertInto("users").values(user).execute();
    return (await this.findByUsername(user.username))!;
  }

  async setPasswordHash(username: string, passwordHash: string, now: string): Promise<boolean> {
    const result = await this.db.kysely
      .updateTable("users")
      .set({ password_hash: passwordHash, updated_at: now })
      .where("username", "=", username)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async findById(id: string): Promise<UserRecord | undefined> {
    const row = await this.db.kysely.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
    return row && this.#toRecord(row);
  }

  /** A user provisioned from an external OpenID Connect issuer, by its `sub`. */
  async findByExternalSubject(subject: string): Promise<UserRecord | undefined> {
    const row = await this.db.kysely
      .selectFrom("users")
      .selectAll()
      .where("external_subject", "=", subject)
      .executeTakeFirst();
    return row && this.#toRecord(row);
  }

  /** Refreshes what the external issuer says about a provisioned user. */
  async updateExternalProfile(
    id: string,
    profile: { name: string; avatar_url: string | null; admin: boolean },
    now: string,
  ): Promise<void> {
    await this.db.kysely
      .updateTable("users")
      .set({ ...profile, updated_at: now })
      .where("id", "=", id)
      .execute();
  }

  #toAccount(row: Pick<UserRow, (typeof ACCOUNT_COLUMNS)[number]>): UserAccount {
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
      createdAt: row.created_at,
    };
  }

  /** The account behind an id (the API auth hook reads it on every call: one query by primary key). */
  async account(id: string): Promise<UserAccount | undefined> {
    const row = await this.db.kysely
      .selectFrom("users")
      .select(ACCOUNT_COLUMNS)
      .where("id", "=", id)
      .executeTakeFirst();
    return row && this.#toAccount(row);
  }

  /** Accounts counted by status (1 enabled, 0 disabled): the `/metrics` figure. */
  async countByStatus(): Promise<{ status: number; count: number }[]> {
    const rows = await this.db.kysely
      .selectFrom("users")
      .select((eb) => ["status", eb.fn.countAll<number | string>().as("count")])
      .groupBy("status")
      .execute();
    return rows.map((row) => ({ status: Number(row.status), count: Number(row.count) }));
  }

  /** A page of accounts by user name, the keyword matching the user name or the name. */
  async accounts(query: PageQuery): Promise<{ users: UserAccount[]; total: number }> {
    let base = this.db.kysely.selectFrom("users");
    if (query.keyword) {
      const pattern = keywordPattern(query.keyword);
      base = base.where((eb) =>
        eb.or([eb(eb.fn("lower", ["username"]), "like", pattern), eb(eb.fn("lower", ["name"]), "like", pattern)]),
      );
    }
    const { count } = await base.select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow();
    const rows = await base
      .select(ACCOUNT_COLUMNS)
      .orderBy("username")
      .limit(query.size)
      .offset(query.page * query.size)
      .execute();
    return { users: rows.map((row) => this.#toAccount(row)), total: Number(count) };
  }

  async updateAccount(id: string, changes: UserAccountChanges, now: string): Promise<void> {
    await this.db.kysely
      .updateTable("users")
      .set({ ...changes, updated_at: now })
      .where("id", "=", id)
      .execute();
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

  /** How many accounts hold a role (a role with holders is not deleted). */
  async countWithRole(roleId: string): Promise<number> {
    const { count } = await this.db.kysely
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("role_id", "=", roleId)
      .executeTakeFirstOrThrow();
    return Number(count);
  }

  async countAdmins(): Promise<number> {
    const { count } = await this.db.kysely
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("admin", "=", true)
      .executeTakeFirstOrThrow();
    return Number(count);
  }
}
