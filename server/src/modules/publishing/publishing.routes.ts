import { PassThrough } from "node:stream";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { apiErrorResponses, envelope, ok, page, toPage } from "../../http/envelope.js";
import { apiRoute } from "../../http/route.js";
import { actorOf } from "../auth/actor.js";
import type { PermissionKey } from "../auth/permissions.js";
import { can, inLibrary } from "../auth/route-config.js";
import { storyParams } from "../stories/stories.schema.js";
import type { DeliveriesService } from "./deliveries.service.js";
import type { DeliveryEvents } from "./delivery-events.js";
import {
  batchPublishBody,
  batchPublishResultSchema,
  channelStatsSchema,
  deliveredCountSchema,
  deliveredCountsBody,
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
const MONITOR: PermissionKey = "manage.monitor.publish";
const monitor = (action: "query" | "update") => ({ access: { permission: MONITOR, action } });

/** A comment line on an open event stream this often, so proxies and browsers keep it. */
export const EVENTS_KEEPALIVE_MS = 15_000;

/** /workflow-story-publish (spec section 7), withdraw, a story's deliveries, and the publish monitor. */
export function publishingRoutes(
  publishing: PublishingService,
  deliveries: DeliveriesService,
  events: DeliveryEvents,
): FastifyPluginAsyncZod {
  return async (app) => {
    const streams = new Set<PassThrough>();
    // A stopping server ends its streams (the browsers reconnect to another node).
    app.addHook("onClose", async () => {
      for (const stream of streams) stream.end();
    });
    app.get(
      "/publishing/events",
      {
        config: monitor("query"),
        schema: {
          tags: ["publishing"],
          summary: "The publish monitor's live stream: a Server-Sent Event whenever a delivery changes, on any node",
          description:
            "`text/event-stream`: `event: delivery` with `{ id, state }` per change; `event: resync` when changes may have been missed (the notification connection was lost and is back): reload; a comment line every 15 s. Send the bearer token in the Authorization header (the browser reads it with fetch).",
          response: { 200: z.any().describe("the event stream"), ...apiErrorResponses },
        },
      },
      async (request, reply) => {
        const out = new PassThrough();
        streams.add(out);
        const send = (event: string, data: unknown) => out.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
        const unsubscribe = events.subscribe(
          (event) => send("delivery", event),
          () => send("resync", {}),
        );
        const keepAlive = setInterval(() => out.write(": keep-alive\n\n"), EVENTS_KEEPALIVE_MS);
        const stop = () => {
          clearInterval(keepAlive);
          unsubscribe();
          streams.delete(out);
          out.end();
        };
        request.raw.once("close", stop);
        out.once("close", stop);
        out.write("retry: 3000\n\n");
        // "ready" once changes made on other nodes reach this stream.
        void events.ready().then(() => send("ready", {}));
        reply
          .header("content-type", "text/event-stream; charset=utf-8")
          .header("cache-control", "no-store, no-transform")
          .header("x-accel-buffering", "no");
        return reply.send(out);
      },
    );
    app.post(
      "/workflow-story-publish/:libraryId/:storyId",
      apiRoute(
        WRITE,
        {
          tags: ["workflow"],
          summary: "Publish a committed story: a record, the story published, one delivery per chosen channel",
          params: storyParams,
          body: publishBody,
        },
        publishRecordSchema,
      ),
      async (request) => {
        const { libraryId, storyId } = request.params;
        return ok(await publishing.publish(actorOf(request), libraryId, storyId, request.body));
      },
    );
    app.post(
      "/publishing/batch",
      {
        // Each story's library write is checked per story (refused stories are named in the answer).
        config: { access: { permission: "story.list", action: "update" } },
        schema: {
          tags: ["publishing"],
          summary: "Publish a selection: per story a record and one delivery per channel, or why it was refused",
          body: batchPublishBody,
          response: { 200: envelope(z.array(batchPublishResultSchema)), ...apiErrorResponses },
        },
      },
      async (request) => ok(await publishing.publishMany(actorOf(request), request.body)),
    );
    app.post(
      "/publishing/delivered-counts",
      apiRoute(
        can("story.list", "query"),
        {
          tags: ["publishing"],
          summary: "Per channel, how many of the given stories already went there (those the caller may read)",
          body: deliveredCountsBody,
        },
        z.array(deliveredCountSchema),
      ),
      async (request) => ok(await publishing.deliveredCounts(actorOf(request), request.body.stories)),
    );
    app.post(
      "/workflow-story-withdraw/:libraryId/:storyId",
      apiRoute(
        WRITE,
        {
          tags: ["workflow"],
          summary: "Withdraw a published story: a kill to every channel it went to",
          params: storyParams,
          body: withdrawBody,
        },
        z.array(deliverySchema.omit({ channelName: true })),
      ),
      async (request) => {
        const { libraryId, storyId } = request.params;
        return ok(await publishing.withdraw(actorOf(request), libraryId, storyId, request.body));
      },
    );
    app.get(
      "/publishing/:libraryId/:storyId/deliveries",
      apiRoute(
        inLibrary({ permission: "story.list", action: "query" }, "read"),
        {
          tags: ["publishing"],
          summary: "Where a story went: its deliveries, newest first, and its embargo",
          params: storyParams,
        },
        storyDeliveriesSchema,
      ),
      async (request) => {
        const { libraryId, storyId } = request.params;
        return ok(await publishing.deliveriesOf(actorOf(request), libraryId, storyId));
      },
    );
    app.get(
      "/publishing/deliveries",
      apiRoute(
        monitor("query"),
        {
          tags: ["publishing"],
          summary: "The publish monitor: deliveries, newest first, by state, channel, story or title",
          querystring: deliveryListQuery,
        },
        page(deliverySchema),
      ),
      async (request) => {
        const { page: number, size, ...filter } = request.query;
        const { content, total } = await deliveries.page(filter, number, size);
        return ok(toPage(content, total, { page: number, size }));
      },
    );
    app.get(
      "/publishing/channel-stats",
      apiRoute(
        monitor("query"),
        { tags: ["publishing"], summary: "Per channel: deliveries, success rate and the last error" },
        z.array(channelStatsSchema),
      ),
      async () => ok(await deliveries.stats()),
    );
    for (const [verb, summary] of [
      ["retry", "Try a failed or cancelled delivery again (same delivery id)"],
      ["cancel", "Stop a pending or retrying delivery"],
      ["resend", "Send the story to the channel again, as a new delivery"],
    ] as const) {
      app.post(
        `/publishing/deliveries/:id/${verb}`,
        apiRoute(monitor("update"), { tags: ["publishing"], summary, params: deliveryIdParams }, deliverySchema),
        async (request) => ok(await deliveries[verb](actorOf(request), request.params.id)),
      );
    }
  };
}
