import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { crudRoutes } from "../../http/crud-routes.js";
import { ok, okPage, page, pageQuery } from "../../http/envelope.js";
import { apiRoute } from "../../http/route.js";
import { currentUser } from "../auth/auth.plugin.js";
import { can } from "../auth/route-config.js";
import { createGrantBody, grantIdParams, grantListQuery, grantSchema } from "./grants.schema.js";
import type { GrantsService } from "./grants.service.js";
import { createRoleBody, permissionCatalogueSchema, roleIdParams, roleSchema, updateRoleBody } from "./roles.schema.js";
import type { RolesService } from "./roles.service.js";
import {
  createUserBody,
  registrationSettingsBody,
  registrationSettingsSchema,
  resetPasswordBody,
  updateUserBody,
  userAccountSchema,
  userIdParams,
} from "./user-admin.schema.js";
import type { UserAdminService } from "./user-admin.service.js";

const USERS = "manage.userrole.user";
const ROLES = "manage.userrole.role";
const GRANTS = "manage.access.control";

export interface AccessServices {
  users: UserAdminService;
  roles: RolesService;
  grants: GrantsService;
}

/** The back area's users (/manage/userrole/user), roles (/manage/userrole/role) and access control screens. */
export function accessRoutes({ users, roles, grants }: AccessServices): FastifyPluginAsyncZod {
  return async (app) => {
    // Users
    app.get(
      "/users",
      apiRoute(
        can(USERS, "query"),
        { tags: ["users"], summary: "List users", querystring: pageQuery },
        page(userAccountSchema),
      ),
      async (request) => okPage(await users.list(request.query), request.query),
    );
    app.post(
      "/users",
      apiRoute(
        can(USERS, "add"),
        { tags: ["users"], summary: "Create a user", body: createUserBody },
        userAccountSchema,
      ),
      async (request) => ok(await users.create(request.body, currentUser(request))),
    );
    app.put(
      "/users/:id",
      apiRoute(
        can(USERS, "edit"),
        {
          tags: ["users"],
          summary: "Change a user's name, avatar, role or admin flag",
          params: userIdParams,
          body: updateUserBody,
        },
        userAccountSchema,
      ),
      async (request) => ok(await users.update(request.params.id, request.body, currentUser(request))),
    );
    for (const action of ["enable", "disable"] as const) {
      app.post(
        `/users/:id/${action}`,
        apiRoute(
          can(USERS, action),
          { tags: ["users"], summary: `${action === "enable" ? "Enable" : "Disable"} a user`, params: userIdParams },
          userAccountSchema,
        ),
        async (request) => ok(await users.setEnabled(request.params.id, action === "enable", currentUser(request))),
      );
    }
    app.get(
      "/users/registration",
      apiRoute(
        can(USERS, "query"),
        { tags: ["users"], summary: "Self-registration: off, approval or open, and the role a new account gets" },
        registrationSettingsSchema,
      ),
      async () => ok(await users.registration()),
    );
    app.put(
      "/users/registration",
      apiRoute(
        can(USERS, "update"),
        {
          tags: ["users"],
          summary: "Set self-registration",
          description:
            "approval: registered accounts wait, disabled, until an administrator enables them (and may pick another role). 400 role_not_found for an unknown role; 403 permission_not_held when the role holds more than the caller.",
          body: registrationSettingsBody,
        },
        registrationSettingsSchema,
      ),
      async (request) => ok(await users.saveRegistration(request.body, currentUser(request))),
    );
    app.post(
      "/users/:id/password",
      apiRoute(
        can(USERS, "update"),
        { tags: ["users"], summary: "Reset a user's password", params: userIdParams, body: resetPasswordBody },
        z.null(),
      ),
      async (request) => {
        await users.resetPassword(request.params.id, request.body.password, currentUser(request));
        return ok(null);
      },
    );

    crudRoutes(app, {
      tags: ["roles"],
      path: "/roles",
      itemPath: "/roles/:id",
      item: roleSchema,
      body: createRoleBody,
      updateBody: updateRoleBody,
      params: roleIdParams,
      list: {
        config: can(ROLES, "query"),
        summary: "List roles with their permissions",
        querystring: pageQuery,
        run: (query) => roles.list(query),
      },
      create: {
        config: can(ROLES, "add"),
        summary: "Create a role",
        run: (body, request) => roles.create(body, currentUser(request)),
      },
      collectionExtras: () =>
        app.get(
          "/roles/permissions",
          apiRoute(
            can(ROLES, "query"),
            {
              tags: ["roles"],
              summary:
                "Every permission a role can hold (the menu keys) with the ten actions: the rows and columns of the matrix",
            },
            z.array(permissionCatalogueSchema),
          ),
          async () => ok(await roles.catalogue()),
        ),
      update: {
        config: can(ROLES, "edit"),
        summary: "Change a role; `permissions` replaces its permissions × actions matrix",
        run: ({ id }, body, request) => roles.update(id, body, currentUser(request)),
      },
      remove: {
        config: can(ROLES, "delete"),
        summary: "Delete a role no user holds",
        run: ({ id }) => roles.delete(id),
      },
    });

    crudRoutes(app, {
      tags: ["access"],
      path: "/library-grants",
      itemPath: "/library-grants/:id",
      item: grantSchema,
      body: createGrantBody,
      params: grantIdParams,
      list: {
        config: can(GRANTS, "query"),
        summary: "List library grants",
        querystring: grantListQuery,
        run: (query) => grants.list(query),
      },
      create: {
        config: can(GRANTS, "add"),
        summary: "Grant a role or a user read, write or manage on a library",
        run: (body) => grants.create(body),
      },
      remove: {
        config: can(GRANTS, "delete"),
        summary: "Remove a library grant",
        run: ({ id }) => grants.delete(id),
      },
    });
  };
}
