import type { Db } from "../../db/database.js";
import type { NewUserRow, UserRow } from "../../db/schema.js";
import { type RegistrationSettings, toRegistrationSettings } from "./registration.js";

export interface UserRecord extends Omit<UserRow, "admin"> {
  admin: boolean;
}

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

  async countAdmins(): Promise<number> {
    const { count } = await this.db.kysely
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("admin", "=", true)
      .executeTakeFirstOrThrow();
    return Number(count);
  }
}
