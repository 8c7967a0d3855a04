import { z } from "zod";
import { ACTIONS } from "../auth/permissions.js";

export const actionSchema = z.enum(ACTIONS);

export const actionEntitySchema = z.object({
  action: actionSchema,
  describe: z.string(),
  defaultCheck: z.boolean(),
});

export const rolePermissionSchema = z
  .object({
    roleId: z.string(),
    permissionId: z.string().describe("a menu key"),
    permissionName: z.string().describe("the web app's i18n key of the permission, `menu.<permissionId>`"),
    actions: z.string().describe("JSON text of actionEntitySet (spec section 3)"),
    actionEntitySet: z.array(actionEntitySchema),
    actionList: z.array(actionSchema),
    dataAccess: z.string().nullable(),
  })
  .meta({ id: "RolePermission" });

export const roleSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    describe: z.string(),
    status: z.number().int().describe("1 enabled, 0 disabled"),
    creatorId: z.string().nullable(),
    createTime: z.string(),
    deleted: z.number().int().describe("0; deleted roles are not listed"),
    permissions: z.array(rolePermissionSchema),
  })
  .meta({ id: "Role" });

export type RoleView = z.infer<typeof roleSchema>;
export type RolePermissionView = z.infer<typeof rolePermissionSchema>;

const permissionInput = z.object({
  permissionId: z.string().min(1).max(200),
  actions: z.array(actionSchema).max(ACTIONS.length),
  dataAccess: z.string().max(2000).nullable().optional(),
});

export const createRoleBody = z.object({
  name: z.string().trim().min(1).max(100),
  describe: z.string().max(500).default(""),
  status: z.union([z.literal(0), z.literal(1)]).default(1),
  permissions: z.array(permissionInput).max(1000).default([]),
});

export const updateRoleBody = z.object({
  name: z.string().trim().min(1).max(100).optional(),
  describe: z.string().max(500).optional(),
  status: z.union([z.literal(0), z.literal(1)]).optional(),
  permissions: z.array(permissionInput).max(1000).optional().describe("replaces the whole matrix when given"),
});

export type CreateRoleBody = z.infer<typeof createRoleBody>;
export type UpdateRoleBody = z.infer<typeof updateRoleBody>;

export const permissionCatalogueSchema = z.object({
  permissionId: z.string(),
  permissionName: z.string(),
  area: z.enum(["user", "admin"]),
  actions: z.array(actionEntitySchema),
});

export const roleIdParams = z.object({ id: z.string().min(1).max(100) });
