import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ok } from "../../http/envelope.js";
import { apiRoute } from "../../http/route.js";
import { currentUser } from "../auth/auth.plugin.js";
import { defaultLibraryQuery, defaultLibrarySchema } from "./user-settings.schema.js";
import type { UserSettingsService } from "./user-settings.service.js";

/** /default-library: the caller's default library and folder. */
export function userSettingsRoutes(settings: UserSettingsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      "/default-library",
      apiRoute(
        { access: "authenticated" },
        { tags: ["workflow"], summary: "The caller's default library and folder (product unless they chose another)" },
        defaultLibrarySchema,
      ),
      async (request) => ok(await settings.defaultLibrary(currentUser(request))),
    );
    app.post(
      "/default-library",
      apiRoute(
        { access: "authenticated" },
        {
          tags: ["workflow"],
          summary: "Save the caller's default library (and folder) from a front-area path",
          querystring: defaultLibraryQuery,
        },
        defaultLibrarySchema,
      ),
      async (request) => ok(await settings.setDefaultLibrary(currentUser(request), request.query.path)),
    );
  };
}
