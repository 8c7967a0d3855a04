import type { FastifyRequest } from "fastify";
import { currentUser } from "../../auth/auth.plugin.js";
import type { PermissionKey } from "../../auth/permissions.js";
import type { MergedBy } from "./catalogue-usage.js";

/** The menu keys (spec section 6 permissionIds) of the back area's catalogue screens. */
export const CATALOGUE_PERMISSIONS = {
  tag: "manage.setting.tag",
  theme: "manage.setting.theme",
  keyword: "manage.setting.keyword",
  source: "manage.setting.source",
  author: "manage.setting.author",
  category: "manage.setting.category",
  codelist: "manage.setting.codelist",
  storyProperties: "manage.setting.storyProperties",
} as const;

/** Reads are open to every signed-in user: the upload forms need the pickers. */
export const READ = { access: "authenticated" as const };

export function write(permission: PermissionKey, action: "add" | "edit" | "delete") {
  return { access: { permission, action } };
}

/** The signed-in user who merges, for the changed stories' actions. */
export function mergedBy(request: FastifyRequest): MergedBy {
  const user = currentUser(request);
  return { id: user.id, username: user.username, ip: request.ip };
}
