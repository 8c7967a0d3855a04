import type { Db } from "../../db/database.js";
import { UserSettingsRepository } from "./user-settings.repository.js";
import { type UserSettingsDependencies, UserSettingsService } from "./user-settings.service.js";

/** Builds the user settings service once (called by app.ts). */
export function buildUserSettings(db: Db, deps: Omit<UserSettingsDependencies, "settings">): UserSettingsService {
  return new UserSettingsService({ ...deps, settings: new UserSettingsRepository(db.kysely) });
}
