import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { apiErrorResponses, envelope, ok } from "../../http/envelope.js";
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
      {
        config: { access: "authenticated" },
        schema: {
          tags,
          summary: "The enabled channels a story can be published to (names only)",
          response: { 200: envelope(z.array(channelOptionSchema)), ...apiErrorResponses },
        },
      },
      async () => ok(await channels.options()),
    );
    app.get(
      "/channels",
      {
        config: can("query"),
        schema: {
          tags,
          summary: "Every channel with its settings (credentials never: only which are set)",
          response: { 200: envelope(z.array(channelSchema)), ...apiErrorResponses },
        },
      },
      async () => ok(await channels.list()),
    );
    app.get(
      "/channels/:id",
      {
        config: can("query"),
        schema: {
          tags,
          summary: "One channel",
          params: channelIdParams,
          response: { 200: envelope(channelSchema), ...apiErrorResponses },
        },
      },
      async (request) => ok(await channels.get(request.params.id)),
    );
    app.post(
      "/channels",
      {
        config: can("add"),
        schema: {
          tags,
          summary: "Create a channel",
          body: channelInput,
          response: { 200: envelope(channelSchema), ...apiErrorResponses },
        },
      },
      async (request) => ok(await channels.create(actorOf(request), request.body)),
    );
    app.put(
      "/channels/:id",
      {
        config: can("edit"),
        schema: {
          tags,
          summary: "Change a channel (credentials: a value sets, null clears, absent keeps)",
          params: channelIdParams,
          body: channelInput,
          response: { 200: envelope(channelSchema), ...apiErrorResponses },
        },
      },
      async (request) => ok(await channels.update(actorOf(request), request.params.id, request.body)),
    );
    app.delete(
      "/channels/:id",
      {
        config: can("delete"),
        schema: {
          tags,
          summary: "Delete a channel",
          params: channelIdParams,
          response: { 200: envelope(z.null()), ...apiErrorResponses },
        },
      },
      async (request) => {
        await channels.delete(actorOf(request), request.params.id);
        return ok(null);
      },
    );
    app.post(
      "/channels/:id/test",
      {
        config: can("query"),
        schema: {
          tags,
          summary: "Test the connection: what was tried and what answered (200 either way)",
          params: channelIdParams,
          response: { 200: envelope(channelTestResult), ...apiErrorResponses },
        },
      },
      async (request) => ok(await channels.test(actorOf(request), request.params.id)),
    );
  };
}
