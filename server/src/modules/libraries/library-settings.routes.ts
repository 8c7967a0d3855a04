import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { crudRoutes } from "../../http/crud-routes.js";
import { ok } from "../../http/envelope.js";
import { apiRoute } from "../../http/route.js";
import { actorOf } from "../auth/actor.js";
import type { PermissionKey } from "../auth/permissions.js";
import { can } from "../auth/route-config.js";
import {
  createLibraryBody,
  librarySettingsParams,
  librarySettingsQuery,
  librarySettingsSchema,
  updateLibraryBody,
} from "./library-settings.schema.js";
import type { LibrarySettingsService } from "./library-settings.service.js";

const tags = ["library settings"];
/** The menu key (spec section 6 permissionId) of /manage/setting/library. */
export const LIBRARY_SETTINGS_PERMISSION: PermissionKey = "manage.setting.library";

/** /library-settings: the administrators' library list (/manage/setting/library). */
export function librarySettingsRoutes(settings: LibrarySettingsService): FastifyPluginAsyncZod {
  return async (app) => {
    crudRoutes(app, {
      tags,
      path: "/library-settings",
      itemPath: "/library-settings/:libraryId",
      item: librarySettingsSchema,
      body: createLibraryBody,
      updateBody: updateLibraryBody,
      params: librarySettingsParams,
      list: {
        config: can(LIBRARY_SETTINGS_PERMISSION, "query"),
        summary: "Every library with its settings and story count (paged; keyword matches name or code)",
        querystring: librarySettingsQuery,
        run: (query) => settings.list(query),
      },
      create: {
        config: can(LIBRARY_SETTINGS_PERMISSION, "add"),
        summary: "Create a library (409 when the code is taken)",
        run: (body, request) => settings.create(actorOf(request), body),
      },
      update: {
        config: can(LIBRARY_SETTINGS_PERMISSION, "edit"),
        summary: "Change a library's settings (its code stays)",
        run: ({ libraryId }, body, request) => settings.update(actorOf(request), libraryId, body),
      },
      remove: {
        config: can(LIBRARY_SETTINGS_PERMISSION, "delete"),
        summary: "Delete a library without stories, with its folders (409 with the count while it holds stories)",
        run: ({ libraryId }, request) => settings.delete(actorOf(request), libraryId),
      },
    });
    for (const [suffix, archived] of [
      ["archive", true],
      ["restore", false],
    ] as const) {
      app.post(
        `/library-settings/:libraryId/${suffix}`,
        apiRoute(
          can(LIBRARY_SETTINGS_PERMISSION, "edit"),
          {
            tags,
            summary: archived
              ? "Archive a library: its stories stay readable, it takes no new stories and no edits"
              : "Bring an archived library back into use",
            params: librarySettingsParams,
          },
          librarySettingsSchema,
        ),
        async (request) => ok(await settings.setArchived(actorOf(request), request.params.libraryId, archived)),
      );
    }
  };
}
