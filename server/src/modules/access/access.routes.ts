import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { commonErrorResponses, envelope, errorEnvelope, ok, page, pageQuery, toPage } from "../../http/envelope.js";
import { currentUser } from "../auth/auth.plugin.js";
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

const errors = {
  ...commonErrorResponses,
  401: errorEnvelope,
  403: errorEnvelope,
  404: errorEnvelope,
  409: errorEnvelope,
};

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
      {
        config: { access: { permission: USERS, action: "query" } },
        schema: {
          tags: ["users"],
          summary: "List users",
          querystring: pageQuery,
          response: { 200: envelope(page(userAccountSchema)), ...errors },
        },
      },
      async (request) => {
        const { content, total } = await users.list(request.query);
        return ok(toPage(content, total, request.query));
      },
    );
    app.post(
      "/users",
      {
        config: { access: { permission: USERS, action: "add" } },
        schema: {
          tags: ["users"],
          summary: "Create a user",
          body: createUserBody,
          response: { 200: envelope(userAccountSchema), ...errors },
        },
      },
      async (request) => ok(await users.create(request.body, currentUser(request))),
    );
    app.put(
      "/users/:id",
      {
        config: { access: { permission: USERS, action: "edit" } },
        schema: {
          tags: ["users"],
          summary: "Change a user's name, avatar, role or admin flag",
          params: userIdParams,
          body: updateUserBody,
          response: { 200: envelope(userAccountSchema), ...errors },
        },
      },
      async (request) => ok(await users.update(request.params.id, request.body, currentUser(request))),
    );
    for (const action of ["enable", "disable"] as const) {
      app.post(
        `/users/:id/${action}`,
        {
          config: { access: { permission: USERS, action } },
          schema: {
            tags: ["users"],
            summary: `${action === "enable" ? "Enable" : "Disable"} a user`,
            params: userIdParams,
            response: { 200: envelope(userAccountSchema), ...errors },
          },
        },
        async (request) => ok(await users.setEnabled(request.params.id, action === "enable", currentUser(request))),
      );
    }
    app.get(
      "/users/registration",
      {
        config: { access: { permission: USERS, action: "query" } },
        schema: {
          tags: ["users"],
          summary: "Self-registration: off, approval or open, and the role a new account gets",
          response: { 200: envelope(registrationSettingsSchema), ...errors },
        },
      },
      async () => ok(await users.registration()),
    );
    app.put(
      "/users/registration",
      {
        config: { access: { permission: USERS, action: "update" } },
        schema: {
          tags: ["users"],
          summary: "Set self-registration",
          description:
            "approval: registered accounts wait, disabled, until an administrator enables them (and may pick another role). 400 role_not_found for an unknown role; 403 permission_not_held when the role holds more than the caller.",
          body: registrationSettingsBody,
          response: { 200: envelope(registrationSettingsSchema), ...errors },
        },
      },
      async (request) => ok(await users.saveRegistration(request.body, currentUser(request))),
    );
    app.post(
      "/users/:id/password",
      {
        config: { access: { permission: USERS, action: "update" } },
        schema: {
          tags: ["users"],
          summary: "Reset a user's password",
          params: userIdParams,
          body: resetPasswordBody,
          response: { 200: envelope(z.null()), ...errors },
        },
      },
      async (request) => {
        await users.resetPassword(request.params.id, request.body.password, currentUser(request));
        return ok(null);
      },
    );

    // Roles
    app.get(
      "/roles",
      {
        config: { access: { permission: ROLES, action: "query" } },
        schema: {
          tags: ["roles"],
          summary: "List roles with their permissions",
          querystring: pageQuery,
          response: { 200: envelope(page(roleSchema)), ...errors },
        },
      },
      async (request) => {
        const { content, total } = await roles.list(request.query);
        return ok(toPage(content, total, request.query));
      },
    );
    app.get(
      "/roles/permissions",
      {
        config: { access: { permission: ROLES, action: "query" } },
        schema: {
          tags: ["roles"],
          summary:
            "Every permission a role can hold (the menu keys) with the ten actions: the rows and columns of the matrix",
          response: { 200: envelope(z.array(permissionCatalogueSchema)), ...errors },
        },
      },
      async () => ok(await roles.catalogue()),
    );
    app.post(
      "/roles",
      {
        config: { access: { permission: ROLES, action: "add" } },
        schema: {
          tags: ["roles"],
          summary: "Create a role",
          body: createRoleBody,
          response: { 200: envelope(roleSchema), ...errors },
        },
      },
      async (request) => ok(await roles.create(request.body, currentUser(request))),
    );
    app.put(
      "/roles/:id",
      {
        config: { access: { permission: ROLES, action: "edit" } },
        schema: {
          tags: ["roles"],
          summary: "Change a role; `permissions` replaces its permissions × actions matrix",
          params: roleIdParams,
          body: updateRoleBody,
          response: { 200: envelope(roleSchema), ...errors },
        },
      },
      async (request) => ok(await roles.update(request.params.id, request.body, currentUser(request))),
    );
    app.delete(
      "/roles/:id",
      {
        config: { access: { permission: ROLES, action: "delete" } },
        schema: {
          tags: ["roles"],
          summary: "Delete a role no user holds",
          params: roleIdParams,
          response: { 200: envelope(z.null()), ...errors },
        },
      },
      async (request) => {
        await roles.delete(request.params.id);
        return ok(null);
      },
    );

    // Library grants
    app.get(
      "/library-grants",
      {
        config: { access: { permission: GRANTS, action: "query" } },
        schema: {
          tags: ["access"],
          summary: "List library grants",
          querystring: grantListQuery,
          response: { 200: envelope(page(grantSchema)), ...errors },
        },
      },
      async (request) => {
        const { content, total } = await grants.list(request.query);
        return ok(toPage(content, total, request.query));
      },
    );
    app.post(
      "/library-grants",
      {
        config: { access: { permission: GRANTS, action: "add" } },
        schema: {
          tags: ["access"],
          summary: "Grant a role or a user read, write or manage on a library",
          body: createGrantBody,
          response: { 200: envelope(grantSchema), ...errors },
        },
      },
      async (request) => ok(await grants.create(request.body)),
    );
    app.delete(
      "/library-grants/:id",
      {
        config: { access: { permission: GRANTS, action: "delete" } },
        schema: {
          tags: ["access"],
          summary: "Remove a library grant",
          params: grantIdParams,
          response: { 200: envelope(z.null()), ...errors },
        },
      },
      async (request) => {
        await grants.delete(request.params.id);
        return ok(null);
      },
    );
  };
}
