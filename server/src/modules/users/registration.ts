import type { RegistrationSettingsTable } from "../../db/schema.js";

export const REGISTRATION_MODES = ["off", "approval", "open"] as const;
export type RegistrationMode = (typeof REGISTRATION_MODES)[number];

export interface RegistrationSettings {
  /** off: nobody registers; approval: new accounts wait, disabled, for an administrator; open: enabled at once. */
  mode: RegistrationMode;
  /** The role a registered account gets (an administrator may pick another when approving). */
  defaultRoleId: string;
  updatedBy: string | null;
  updatedAt: string;
}

/** A registration_settings row as the service reads it. */
export function toRegistrationSettings(row: RegistrationSettingsTable): RegistrationSettings {
  return {
    mode: row.mode,
    defaultRoleId: row.default_role_id,
    updatedBy: row.updated_by,
    updatedAt: row.updated_at,
  };
}
