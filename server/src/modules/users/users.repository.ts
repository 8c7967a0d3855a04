import type { Db } from "../../db/database.js";
import type { NewUserRow, UserRow } from "../../db/schema.js";

export interface UserRecord extends Omit<UserRow, "admin"> {
  admin: boolean;
}

export class UsersRepository {
  constructor(private readonly db: Db) {}

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

  async countAdmins(): Promise<number> {
    const { count } = await this.db.kysely
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("admin", "=", true)
      .executeTakeFirstOrThrow();
    return Number(count);
  }
}
