import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { apiErrorResponses, envelope, ok, page, toPage } from "../../http/envelope.js";
import { actorOf } from "../auth/actor.js";
import { inLibrary } from "../auth/route-config.js";
import { storyParams } from "../stories/stories.schema.js";
import type { DeliveriesService } from "./deliveries.service.js";
import {
  channelStatsSchema,
  deliveryIdParams,
  deliveryListQuery,
  deliverySchema,
  publishBody,
  publishRecordSchema,
  storyDeliveriesSchema,
  withdrawBody,
} from "./publishing.schema.js";
import type { PublishingService } from "./publishing.service.js";

const WRITE = inLibrary({ permission: "story.list", action: "update" }, "write");
/** The publish monitor's permission (/manage/monitor/publish). */
const MONITOR = "manage.monitor.publish";
const monitor = (action: "query" | "update") => ({ access: { permission: MONITOR, action } });

/** /workflow-story-publish (spec section 7), withdraw, a story's deliveries, and the publish monitor. */
export function publishingRoutes(publishing: PublishingService, deliveries: DeliveriesService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      "/workflow-story-publish/:libraryId/:storyId",
      {
        config: WRITE,
        schema: {
          tags: ["workflow"],
          summary: "Publish a committed story: a record, the story published, one delivery per chosen channel",
          params: storyParams,
          body: publishBody,
          response: { 200: envelope(publishRecordSchema), ...apiErrorResponses },
        },
      },
      async (request) => {
        const { libraryId, storyId } = request.params;
        return ok(await publishing.publish(actorOf(request), libraryId, storyId, request.body));
      },
    );
    app.post(
      "/workflow-story-withdraw/:libraryId/:storyId",
      {
        config: WRITE,
        schema: {
          tags: ["workflow"],
          summary: "Withdraw a published story: a kill to every channel it went to",
          params: storyParams,
          body: withdrawBody,
          response: { 200: envelope(z.array(deliverySchema.omit({ channelName: true }))), ...apiErrorResponses },
        },
      },
      async (request) => {
        const { libraryId, storyId } = request.params;
        return ok(await publishing.withdraw(actorOf(request), libraryId, storyId, request.body));
      },
    );
    app.get(
      "/publishing/:libraryId/:storyId/deliveries",
      {
        config: inLibrary({ permission: "story.list", action: "query" }, "read"),
        schema: {
          tags: ["publishing"],
          summary: "Where a story went: its deliveries, newest first, and its embargo",
          params: storyParams,
          response: { 200: envelope(storyDeliveriesSchema), ...apiErrorResponses },
        },
      },
      async (request) => {
        const { libraryId, storyId } = request.params;
        return ok(await publishing.deliveriesOf(actorOf(request), libraryId, storyId));
      },
    );
    app.get(
      "/publishing/deliveries",
      {
        config: monitor("query"),
        schema: {
          tags: ["publishing"],
          summary: "The publish monitor: deliveries, newest first, by state, channel, story or title",
          querystring: deliveryListQuery,
          response: { 200: envelope(page(deliverySchema)), ...apiErrorResponses },
        },
      },
      async (request) => {
        const { page: number, size, ...filter } = request.query;
        const { content, total } = await deliveries.page(filter, number, size);
        return ok(toPage(content, total, { page: number, size }));
      },
    );
    app.get(
      "/publishing/channel-stats",
      {
        config: monitor("query"),
        schema: {
          tags: ["publishing"],
          summary: "Per channel: deliveries, success rate and the last error",
          response: { 200: envelope(z.array(channelStatsSchema)), ...apiErrorResponses },
        },
      },
      async () => ok(await deliveries.stats()),
    );
    for (const [verb, summary] of [
      ["retry", "Try a failed or cancelled delivery again (same delivery id)"],
      ["cancel", "Stop a pending or retrying delivery"],
      ["resend", "Send the story to the channel again, as a new delivery"],
    ] as const) {
      app.post(
        `/publishing/deliveries/:id/${verb}`,
        {
          config: monitor("update"),
          schema: {
            tags: ["publishing"],
            summary,
            params: deliveryIdParams,
            response: { 200: envelope(deliverySchema), ...apiErrorResponses },
          },
        },
        async (request) => ok(await deliveries[verb](actorOf(request), request.params.id)),
      );
    }
  };
}
