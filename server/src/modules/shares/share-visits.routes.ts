import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { envelope, errorEnvelope, ok } from "../../http/envelope.js";
import { apiRoute } from "../../http/route.js";
import { sendBlob } from "../blobs/send-blob.js";
import { sendZip } from "../blobs/send-zip.js";
import type { StoryDownloads } from "../stories/story-downloads.service.js";
import { SHARE_FILES_PATH, type ShareVisits } from "./share-visits.service.js";
import { shareFileParams, unlockBody, unlockSchema, visitorShareSchema } from "./shares.schema.js";

const visitorErrors = {
  400: errorEnvelope,
  401: errorEnvelope.describe("share_locked: the password first; share_password_wrong"),
  403: errorEnvelope,
  404: errorEnvelope,
  410: errorEnvelope.describe("share_unavailable: unknown, expired, revoked or used up — one answer for all"),
  429: errorEnvelope.describe("too_many_attempts"),
  500: errorEnvelope,
};

/**
 * The visitor's side of share links: no user, the token in `X-Share-Token`
 * (the `share` kind of access of the API hook), a share-scoped session in
 * `X-Share-Session` after the password, files by URLs signed for the share.
 */
export function shareVisitsRoutes(visits: ShareVisits, downloads: StoryDownloads): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      "/shared",
      apiRoute(
        { access: "share", shareBeforeUnlock: true },
        {
          tags: ["share visitors"],
          summary: "The shared stories as the visitor page shows them (locked: only the title, until the password)",
        },
        visitorShareSchema,
        visitorErrors,
      ),
      async (request, reply) => {
        reply.header("cache-control", "no-store");
        reply.header("x-robots-tag", "noindex, nofollow");
        return ok(await visits.open(request));
      },
    );
    app.post(
      "/shared/unlock",
      {
        config: {
          access: "share",
          shareBeforeUnlock: true,
          notAudited: "changes nothing; ShareVisits records every try as share.unlock (ok or failed) for the visitor",
        },
        schema: {
          tags: ["share visitors"],
          summary: "Give the share's password; answers a session for this share (never a user token)",
          body: unlockBody,
          response: { 200: envelope(unlockSchema), ...visitorErrors },
        },
      },
      async (request, reply) => {
        reply.header("cache-control", "no-store");
        return ok(await visits.unlock(request, request.body.password));
      },
    );
    app.get(
      `${SHARE_FILES_PATH}/:token`,
      {
        config: { public: true },
        schema: {
          tags: ["share visitors"],
          summary:
            "A shared file by a URL the share handed out (short-lived; refused at once when the share is revoked)",
          params: shareFileParams,
          response: {
            200: z.any().describe("the file's bytes, or a zip"),
            206: z.any().describe("a byte range"),
            304: z.any(),
            ...visitorErrors,
          },
        },
      },
      async (request, reply) => {
        reply.header("x-robots-tag", "noindex, nofollow");
        const answer = await visits.file(request, request.params.token);
        if (answer.kind === "zip") return sendZip(reply, downloads.blobs, answer.entries, answer.name);
        return sendBlob(request, reply, downloads.blobs, {
          key: answer.resolved.blobKey,
          fileName: answer.resolved.fileName,
          contentType: answer.resolved.contentType,
          disposition: answer.download ? "attachment" : "inline",
          etag: "etag" in answer.resolved ? answer.resolved.etag : undefined,
        });
      },
    );
  };
}
