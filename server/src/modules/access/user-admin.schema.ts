import { z } from "zod";
import { REGISTRATION_MODES } from "../users/registration.js";

export const userAccountSchema = z
  .object({
    id: z.string(),
    username: z.string(),
    name: z.string(),
    avatarUrl: z.string().nullable(),
    admin: z.boolean(),
    status: z.number().int().describe("1 enabled, 0 disabled"),
    roleId: z.string().nullable(),
    roleName: z.string().nullable(),
    lastAccessIP: z.string().nullable(),
    lastAccessTime: z.string().nullable(),
    createTime: z.string(),
  })
  .meta({ id: "UserAccount" });

export type UserAccountView = z.infer<typeof userAccountSchema>;

export const createUserBody = z.object({
  username: z.string().min(2).max(64),
  name: z.string().trim().min(1).max(100).optional(),
  password: z.string().min(8).max(200),
  roleId: z.string().min(1).max(100).optional().describe("contributor when absent"),
  admin: z.boolean().default(false),
});

export const updateUserBody = z.object({
  name: z.string().trim().min(1).max(100).optional(),
  avatarUrl: z.string().max(2000).nullable().optional(),
  roleId: z.string().min(1).max(100).optional(),
  admin: z.boolean().optional(),
});

export const resetPasswordBody = z.object({ password: z.string().min(8).max(200) });

export type CreateUserBody = z.infer<typeof createUserBody>;
export type UpdateUserBody = z.infer<typeof updateUserBody>;

export const userIdParams = z.object({ id: z.string().min(1).max(100) });

export const registrationSettingsBody = z.object({
  mode: z
    .enum(REGISTRATION_MODES)
    .describe(
      "off: nobody registers; approval: new accounts wait, disabled, for an administrator; open: enabled at once",
    ),
  defaultRoleId: z.string().min(1).max(100).describe("the role a registered account gets"),
});

export const registrationSettingsSchema = registrationSettingsBody
  .extend({ updatedBy: z.string().nullable(), updatedAt: z.string() })
  .meta({ id: "RegistrationSettings" });
