import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ok, okPage, page } from "../../http/envelope.js";
import { apiRoute } from "../../http/route.js";
import { actorOf } from "../auth/actor.js";
import type { PermissionKey } from "../auth/permissions.js";
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
const access = (action: "query" | "add" | "edit" | "delete") => ({
  access: { permission: LIBRARY_SETTINGS_PERMISSION, action },
});

/** /library-settings: the administrators' library list (/manage/setting/library). */
export function librarySettingsRoutes(settings: LibrarySettingsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      "/library-settings",
      apiRoute(
        access("query"),
        {
          tags,
          summary: "Every library with its settings and story count (paged; keyword matches name or code)",
          querystring: librarySettingsQuery,
        },
        page(librarySettingsSchema),
      ),
      async (request) => okPage(await settings.list(request.query), request.query),
    );
    app.post(
      "/library-settings",
      apiRoute(
        access("add"),
        { tags, summary: "Create a library (409 when the code is taken)", body: createLibraryBody },
        librarySettingsSchema,
      ),
      async (request) => ok(await settings.create(actorOf(request), request.body)),
    );
    app.put(
      "/library-settings/:libraryId",
      apiRoute(
        access("edit"),
        {
          tags,
          summary: "Change a library's settings (its code stays)",
          params: librarySettingsParams,
          body: updateLibraryBody,
        },
        librarySettingsSchema,
      ),
      async (request) => ok(await settings.update(actorOf(request), request.params.libraryId, request.body)),
    );
    for (const [suffix, archived] of [
      ["archive", true],
      ["restore", false],
    ] as const) {
      app.post(
        `/library-settings/:libraryId/${suffix}`,
        apiRoute(
          access("edit"),
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
    app.delete(
      "/library-settings/:libraryId",
      apiRoute(
        access("delete"),
        {
          tags,
          summary: "Delete a library without stories, with its folders (409 with the count while it holds stories)",
          params: librarySettingsParams,
        },
        z.null(),
      ),
      async (request) => {
        await settings.delete(actorOf(request), request.params.libraryId);
        return ok(null);
      },
    );
  };
}
