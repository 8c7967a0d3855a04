import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ok } from "../../http/envelope.js";
import { apiRoute } from "../../http/route.js";
import { actorOf } from "../auth/actor.js";
import type { PermissionKey } from "../auth/permissions.js";
import {
  channelIdParams,
  channelInput,
  channelOptionSchema,
  channelSchema,
  channelTestResult,
} from "./channels.schema.js";
import type { ChannelsService } from "./channels.service.js";

const tags = ["publishing: channels"];
/** The tunnel settings screen's permission (/manage/setting/tunnel). */
const TUNNEL: PermissionKey = "manage.setting.tunnel";
const can = (action: "query" | "add" | "edit" | "delete" | "update") => ({ access: { permission: TUNNEL, action } });

/** /channels: the publishing channels (spec: tunnels), their connection test, and the names publishers choose from. */
export function channelsRoutes(channels: ChannelsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      "/channels/options",
      apiRoute(
        { access: "authenticated" },
        { tags, summary: "The enabled channels a story can be published to (names only)" },
        z.array(channelOptionSchema),
      ),
      async () => ok(await channels.options()),
    );
    app.get(
      "/channels",
      apiRoute(
        can("query"),
        { tags, summary: "Every channel with its settings (credentials never: only which are set)" },
        z.array(channelSchema),
      ),
      async () => ok(await channels.list()),
    );
    app.get(
      "/channels/:id",
      apiRoute(can("query"), { tags, summary: "One channel", params: channelIdParams }, channelSchema),
      async (request) => ok(await channels.get(request.params.id)),
    );
    app.post(
      "/channels",
      apiRoute(can("add"), { tags, summary: "Create a channel", body: channelInput }, channelSchema),
      async (request) => ok(await channels.create(actorOf(request), request.body)),
    );
    app.put(
      "/channels/:id",
      apiRoute(
        can("edit"),
        {
          tags,
          summary: "Change a channel (credentials: a value sets, null clears, absent keeps)",
          params: channelIdParams,
          body: channelInput,
        },
        channelSchema,
      ),
      async (request) => ok(await channels.update(actorOf(request), request.params.id, request.body)),
    );
    app.delete(
      "/channels/:id",
      apiRoute(can("delete"), { tags, summary: "Delete a channel", params: channelIdParams }, z.null()),
      async (request) => {
        await channels.delete(actorOf(request), request.params.id);
        return ok(null);
      },
    );
    app.post(
      "/channels/:id/test",
      apiRoute(
        can("query"),
        {
          tags,
          summary: "Test the connection: what was tried and what answered (200 either way)",
          params: channelIdParams,
        },
        channelTestResult,
      ),
      async (request) => ok(await channels.test(actorOf(request), request.params.id)),
    );
  };
}
