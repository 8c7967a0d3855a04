import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ok } from "../../http/envelope.js";
import { apiRoute } from "../../http/route.js";
import { actorOf } from "../auth/actor.js";
import { inLibrary } from "../auth/route-config.js";
import { storyParams } from "../stories/stories.schema.js";
import { createRelationBody, relationIdParams, relationSchema } from "./relations.schema.js";
import type { RelationsService } from "./relations.service.js";

/** /stories/relation/{libraryId}/{storyId}: a story's relations to other stories. */
export function relationsRoutes(relations: RelationsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      "/stories/relation/:libraryId/:storyId",
      apiRoute(
        inLibrary({ permission: "search", action: "get" }, "read"),
        { tags: ["stories"], summary: "Relations of a story (to stories the caller can read)", params: storyParams },
        z.array(relationSchema),
      ),
      async (request) => ok(await relations.list(actorOf(request), request.params.libraryId, request.params.storyId)),
    );
    app.post(
      "/stories/relation/:libraryId/:storyId",
      apiRoute(
        inLibrary({ permission: "story.list", action: "edit" }, "write"),
        {
          tags: ["stories"],
          summary: "Relate a story to another story the caller can read",
          params: storyParams,
          body: createRelationBody,
        },
        z.array(relationSchema),
      ),
      async (request) =>
        ok(await relations.relate(actorOf(request), request.params.libraryId, request.params.storyId, request.body)),
    );
    app.delete(
      "/stories/relation/:libraryId/:storyId/:relationId",
      apiRoute(
        inLibrary({ permission: "story.list", action: "edit" }, "write"),
        { tags: ["stories"], summary: "Remove a relation of a story", params: relationIdParams },
        z.null(),
      ),
      async (request) => {
        const { libraryId, storyId, relationId } = request.params;
        await relations.unrelate(actorOf(request), libraryId, storyId, relationId);
        return ok(null);
      },
    );
  };
}
