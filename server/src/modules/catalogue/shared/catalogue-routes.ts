import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ok } from "../../../http/envelope.js";
import { apiRoute } from "../../../http/route.js";
import { currentUser } from "../../auth/auth.plugin.js";
import type { PermissionKey } from "../../auth/permissions.js";
import { pickQuery } from "./catalogue-schema.js";
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

/** An unpaged GET for the pickers: the query's keyword and size go to `read`, which answers the list. */
export function pickListRoute<Item>(
  path: string,
  docs: { tags: string[]; summary: string },
  item: z.ZodType<Item>,
  read: (keyword: string | undefined, size: number) => Promise<Item[]>,
): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(path, apiRoute(READ, { ...docs, querystring: pickQuery }, z.array(item)), async (request) =>
      ok(await read(request.query.keyword, request.query.size)),
    );
  };
}
