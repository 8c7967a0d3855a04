import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ok, page, toPage } from "../../http/envelope.js";
import { apiRoute } from "../../http/route.js";
import { actorOf } from "../auth/actor.js";
import {
  BATCH_INLINE_MAX,
  BATCH_MAX_STORIES,
  batchBody,
  batchIdParams,
  batchItemSchema,
  batchItemsQuery,
  batchPreviewSchema,
  batchSchema,
} from "./story-batch.schema.js";
import { BATCH_PERMISSION, type StoryBatchService } from "./story-batch.service.js";

const tags = ["workflow"];
const access = { access: BATCH_PERMISSION };

/** Batch edits of story metadata: preview, start, follow, report (docs/stories.md, "Editing many stories"). */
export function storyBatchRoutes(batches: StoryBatchService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      "/story-batch-edits/preview",
      apiRoute(
        access,
        {
          tags,
          summary: "How many stories each operation of a batch edit would change, and how many are refused",
          description: `Nothing is changed. Stories the caller may not change (another library's, read-only, another user's draft, a property their role may not edit) count as refused, by reason. Up to ${BATCH_MAX_STORIES} stories.`,
          body: batchBody,
        },
        batchPreviewSchema,
      ),
      async (request) => ok(await batches.preview(actorOf(request), request.body)),
    );
    app.post(
      "/story-batch-edits",
      apiRoute(
        access,
        {
          tags,
          summary: "Start a batch edit of stories' metadata",
          description: `The operations are applied in order to each story through the single edit (the same checks, history and search index), each story all or nothing and reported (changed, unchanged, refused with the reason). Up to ${BATCH_INLINE_MAX} stories run inside the request (the answer is the finished batch), more as one job: follow GET /story-batch-edits/{batchId}.`,
          body: batchBody,
        },
        batchSchema,
      ),
      async (request) => ok(await batches.start(actorOf(request), request.body)),
    );
    app.get(
      "/story-batch-edits/:batchId",
      apiRoute(
        access,
        {
          tags,
          summary: "A batch edit's state, progress and counts (its creator's, or any for an administrator)",
          params: batchIdParams,
        },
        batchSchema,
      ),
      async (request) => ok(await batches.get(actorOf(request), request.params.batchId)),
    );
    app.get(
      "/story-batch-edits/:batchId/items",
      apiRoute(
        access,
        {
          tags,
          summary: "A batch edit's per-story report, in the selection's order",
          params: batchIdParams,
          querystring: batchItemsQuery,
        },
        page(batchItemSchema),
      ),
      async (request) => {
        const { content, total } = await batches.items(actorOf(request), request.params.batchId, request.query);
        return ok(toPage(content, total, request.query));
      },
    );
  };
}
