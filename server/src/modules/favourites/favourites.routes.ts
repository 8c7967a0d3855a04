import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ok, page } from "../../http/envelope.js";
import { apiRoute } from "../../http/route.js";
import { actorOf } from "../auth/actor.js";
import { favoriteBody, favoriteDeleteQuery, favoriteListQuery, favoriteSchema } from "./favourites.schema.js";
import type { FavouritesService } from "./favourites.service.js";

/** /workflow-story-favorite: the caller's favourites (spec section 7). */
export function favouritesRoutes(favourites: FavouritesService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      "/workflow-story-favorite",
      apiRoute(
        { access: "authenticated" },
        {
          tags: ["workflow"],
          summary: "Add a story to the caller's favourites (again: no change)",
          body: favoriteBody,
        },
        favoriteSchema,
      ),
      async (request) => ok(await favourites.add(actorOf(request), request.body)),
    );
    app.get(
      "/workflow-story-favorite",
      apiRoute(
        { access: "authenticated" },
        { tags: ["workflow"], summary: "The caller's favourites, newest first", querystring: favoriteListQuery },
        page(favoriteSchema),
      ),
      async (request) => {
        const { content, total } = await favourites.list(actorOf(request), request.query);
        return ok({ content, totalElements: total, size: request.query.size, number: request.query.page });
      },
    );
    app.delete(
      "/workflow-story-favorite",
      apiRoute(
        { access: "authenticated" },
        {
          tags: ["workflow"],
          summary: "Remove a story from the caller's favourites",
          querystring: favoriteDeleteQuery,
        },
        z.null(),
      ),
      async (request) => {
        await favourites.remove(actorOf(request), request.query);
        return ok(null);
      },
    );
  };
}
