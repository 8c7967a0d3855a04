import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ok, page, toPage } from "../../http/envelope.js";
import { apiRoute } from "../../http/route.js";
import { actorOf } from "../auth/actor.js";
import { inLibrary } from "../auth/route-config.js";
import { storyParams } from "../stories/stories.schema.js";
import {
  createShareBody,
  shareIdParams,
  shareItemSchema,
  shareListQuery,
  shareQuery,
  shareSchema,
  shareSettingsSchema,
  shareVisitSchema,
  shareVisitsQuery,
  updateShareBody,
} from "./shares.schema.js";
import type { SharesService } from "./shares.service.js";

const CREATE = { permission: "share.netdisk", action: "add" } as const;

/** Share links, their owners' side: make, list, change, revoke (docs/sharing.md). */
export function sharesRoutes(shares: SharesService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      "/workflow-story-share/story/:libraryId/:storyId",
      apiRoute(
        inLibrary(CREATE, "read"),
        {
          tags: ["shares"],
          summary: "Share one story with the defaults: previews, caption and credit, expiring in 7 days",
          params: storyParams,
          querystring: shareQuery,
        },
        shareSchema,
      ),
      async (request) => {
        const { libraryId, storyId } = request.params;
        return ok(await shares.quickShare(actorOf(request), libraryId, storyId, request.query.expiresInDays));
      },
    );
    app.post(
      "/shares",
      apiRoute(
        { access: CREATE },
        {
          tags: ["shares"],
          summary: "Share a story, several stories, a folder or a saved search, with options",
          body: createShareBody,
        },
        shareSchema,
      ),
      async (request) => ok(await shares.create(actorOf(request), request.body)),
    );
    app.get(
      "/shares",
      apiRoute(
        { access: "authenticated" },
        {
          tags: ["shares"],
          summary: "My shares (administrators: everyone's with all=true), newest first, with views and downloads",
          querystring: shareListQuery,
        },
        page(shareItemSchema),
      ),
      async (request) => {
        const { content, total } = await shares.list(actorOf(request), request.query);
        return ok(toPage(content, total, request.query));
      },
    );
    app.patch(
      "/shares/:shareId",
      apiRoute(
        { access: "authenticated" },
        {
          tags: ["shares"],
          summary: "Change a share's options (expiry, password, limits, downloads, metadata, message)",
          params: shareIdParams,
          body: updateShareBody,
        },
        shareItemSchema,
      ),
      async (request) => ok(await shares.update(actorOf(request), request.params.shareId, request.body)),
    );
    app.delete(
      "/shares/:shareId",
      apiRoute(
        { access: "authenticated" },
        {
          tags: ["shares"],
          summary: "Revoke a share: its link and every file URL it handed out stop working at once",
          params: shareIdParams,
        },
        z.null(),
      ),
      async (request) => {
        await shares.revoke(actorOf(request), request.params.shareId);
        return ok(null);
      },
    );
    app.get(
      "/shares/:shareId/visits",
      apiRoute(
        { access: "authenticated" },
        {
          tags: ["shares"],
          summary: "A share's visitor log, newest first: when, address, what was opened, viewed or downloaded",
          params: shareIdParams,
          querystring: shareVisitsQuery,
        },
        page(shareVisitSchema),
      ),
      async (request) => {
        const { content, total } = await shares.visits(actorOf(request), request.params.shareId, request.query);
        return ok(toPage(content, total, request.query));
      },
    );
    app.get(
      "/share-settings",
      apiRoute(
        { access: "authenticated" },
        {
          tags: ["shares"],
          summary: "The administrator's limits on share links (the longest expiry; whether 'never' is allowed)",
        },
        shareSettingsSchema,
      ),
      async () => ok(await shares.settings()),
    );
    app.put(
      "/share-settings",
      apiRoute(
        { access: "admin" },
        { tags: ["shares"], summary: "Set the limits on share links", body: shareSettingsSchema },
        shareSettingsSchema,
      ),
      async (request) => ok(await shares.saveSettings(actorOf(request), request.body)),
    );
  };
}
