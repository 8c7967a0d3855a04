import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { commonErrorResponses, envelope, errorEnvelope, ok, page, toPage } from "../../http/envelope.js";
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

const errors = {
  ...commonErrorResponses,
  401: errorEnvelope,
  403: errorEnvelope,
  404: errorEnvelope,
  409: errorEnvelope,
};
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
      {
        config: access("query"),
        schema: {
          tags,
          summary: "Every library with its settings and story count (paged; keyword matches name or code)",
          querystring: librarySettingsQuery,
          response: { 200: envelope(page(librarySettingsSchema)), ...errors },
        },
      },
      async (request) => {
        const { content, total } = await settings.list(request.query);
        return ok(toPage(content, total, request.query));
      },
    );
    app.post(
      "/library-settings",
      {
        config: access("add"),
        schema: {
          tags,
          summary: "Create a library (409 when the code is taken)",
          body: createLibraryBody,
          response: { 200: envelope(librarySettingsSchema), ...errors },
        },
      },
      async (request) => ok(await settings.create(actorOf(request), request.body)),
    );
    app.put(
      "/library-settings/:libraryId",
      {
        config: access("edit"),
        schema: {
          tags,
          summary: "Change a library's settings (its code stays)",
          params: librarySettingsParams,
          body: updateLibraryBody,
          response: { 200: envelope(librarySettingsSchema), ...errors },
        },
      },
      async (request) => ok(await settings.update(actorOf(request), request.params.libraryId, request.body)),
    );
    for (const [suffix, archived] of [
      ["archive", true],
      ["restore", false],
    ] as const) {
      app.post(
        `/library-settings/:libraryId/${suffix}`,
        {
          config: access("edit"),
          schema: {
            tags,
            summary: archived
              ? "Archive a library: its stories stay readable, it takes no new stories and no edits"
              : "Bring an archived library back into use",
            params: librarySettingsParams,
            response: { 200: envelope(librarySettingsSchema), ...errors },
          },
        },
        async (request) => ok(await settings.setArchived(actorOf(request), request.params.libraryId, archived)),
      );
    }
    app.delete(
      "/library-settings/:libraryId",
      {
        config: access("delete"),
        schema: {
          tags,
          summary: "Delete a library without stories, with its folders (409 with the count while it holds stories)",
          params: librarySettingsParams,
          response: { 200: envelope(z.null()), ...errors },
        },
      },
      async (request) => {
        await settings.delete(actorOf(request), request.params.libraryId);
        return ok(null);
      },
    );
  };
}
