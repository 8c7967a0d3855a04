import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { commonErrorResponses, envelope, errorEnvelope, ok } from "../../http/envelope.js";
import { currentUser } from "../auth/auth.plugin.js";
import { isAdminOnlyPermission } from "../auth/permissions.js";
import { roleSchema } from "./roles.schema.js";
import type { RolesService } from "./roles.service.js";

const loginUserSchema = z
  .object({
    uuid: z.string(),
    name: z.string(),
    username: z.string(),
    avatarUrl: z.string().nullable(),
    lastAccessIP: z.string().nullable(),
    lastAccessTime: z.string().nullable(),
    admin: z.boolean(),
    role: roleSchema.nullable().describe("null when the user holds no role"),
  })
  .meta({ id: "LoginUser" });

/** GET /users/login/user: the signed-in user, with the permissions the server will enforce. */
export function currentUserRoutes(roles: RolesService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      "/users/login/user",
      {
        config: { access: "authenticated" },
        schema: {
          tags: ["users"],
          summary: "The signed-in user and their role (spec section 7)",
          response: { 200: envelope(loginUserSchema), ...commonErrorResponses, 401: errorEnvelope },
        },
      },
      async (request) => {
        const user = currentUser(request);
        const role = user.roleId ? await roles.get(user.roleId).catch(() => null) : null;
        const effective = role && {
          ...role,
          // What the server enforces: a disabled role grants nothing; system settings are for admins.
          permissions:
            role.status !== 1
              ? []
              : role.permissions.filter((p) => user.admin || !isAdminOnlyPermission(p.permissionId)),
        };
        return ok({
          uuid: user.id,
          name: user.name,
          username: user.username,
          avatarUrl: user.avatarUrl,
          lastAccessIP: user.lastAccessIp,
          lastAccessTime: user.lastAccessTime,
          admin: user.admin,
          role: effective,
        });
      },
    );
  };
}
