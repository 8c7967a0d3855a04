import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

export interface UserSettings {
  defaultLibraryId: string | null;
  defaultFolderId: string | null;
}

/** SQL of each user's settings. */
export class UserSettingsRepository {
  constructor(private readonly kysely: Kysely<Database>) {}

  async find(userId: string): Promise<UserSettings | undefined> {
    return this.kysely
      .selectFrom("user_settings")
      .select(["default_library_id as defaultLibraryId", "default_folder_id as defaultFolderId"])
      .where("user_id", "=", userId)
      .executeTakeFirst();
  }

  async save(userId: string, settings: UserSettings, now: string): Promise<void> {
    const values = {
      default_library_id: settings.defaultLibraryId,
      default_folder_id: settings.defaultFolderId,
      updated_at: now,
    };
    await this.kysely
      .insertInto("user_settings")
      .values({ user_id: userId, ...values })
      .onConflict((conflict) => conflict.column("user_id").doUpdateSet(values))
      .execute();
  }
}
