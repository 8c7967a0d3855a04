import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { commonErrorResponses, errorEnvelope, ok } from "../../http/envelope.js";
import { apiRoute } from "../../http/route.js";
import { currentUser } from "../auth/auth.plugin.js";
import { libraryParams, librarySchema } from "./libraries.schema.js";
import type { LibrariesService } from "./libraries.service.js";

const errors = { ...commonErrorResponses, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope };

export function librariesRoutes(libraries: LibrariesService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      "/libraries",
      apiRoute(
        { access: "authenticated" },
        { tags: ["libraries"], summary: "The libraries the caller can read, with their level on each" },
        z.array(librarySchema),
        errors,
      ),
      async (request) => ok(await libraries.readable(currentUser(request))),
    );
    app.get(
      "/libraries/:libraryId",
      apiRoute(
        { access: "authenticated", library: { param: "libraryId", level: "read" } },
        { tags: ["libraries"], summary: "One library", params: libraryParams },
        librarySchema,
        errors,
      ),
      async (request) => {
        const user = currentUser(request);
        const library = await libraries.require(user, request.params.libraryId, "read");
        const [view] = (await libraries.readable(user)).filter((candidate) => candidate.id === library.id);
        return ok(view!);
      },
    );
  };
}
