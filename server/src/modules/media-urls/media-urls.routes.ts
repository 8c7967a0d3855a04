import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorEnvelope, ok } from "../../http/envelope.js";
import { Forbidden } from "../../http/errors.js";
import { apiRoute } from "../../http/route.js";
import { sendBlob } from "../blobs/send-blob.js";
import { downloadQuery, storyParams } from "../stories/stories.schema.js";
import type { StoryDownloads } from "../stories/story-downloads.service.js";
import type { StoryQueries } from "../stories/story-queries.service.js";
import { MEDIA_PATH, type MediaUrlSigner } from "./media-url-signer.js";

const mediaUrlSchema = z.object({
  url: z.string().describe("a path under /dams/api/v1/media/ that needs no Authorization header"),
  expiresAt: z.string().describe("ISO time after which the URL answers 403; ask again for a fresh one"),
});

const REFUSALS = {
  malformed: "the media URL is not one this server signed",
  bad_signature: "the media URL is not one this server signed",
  expired: "the media URL has expired; reload the story for a fresh one",
} as const;

/**
 * Signed media URLs: readers of a story get a short-lived URL for one of its
 * files; the public media route serves it with Range, validators and the
 * user-content headers (sendBlob), and nothing else.
 */
export function mediaUrlsRoutes(services: {
  signer: MediaUrlSigner;
  downloads: StoryDownloads;
  queries: StoryQueries;
}): FastifyPluginAsyncZod {
  const { signer, downloads, queries } = services;
  return async (app) => {
    app.get(
      "/stories/:libraryId/:storyId/media-url",
      apiRoute(
        { access: { permission: "search", action: "get" }, library: { param: "libraryId", level: "read" } },
        {
          tags: ["stories"],
          summary:
            "A short-lived signed URL for one file of a story (for <img>, <video>, <audio>; renew before expiry)",
          params: storyParams,
          querystring: downloadQuery,
        },
        mediaUrlSchema,
      ),
      async (request) => {
        const story = await queries.require(request.params.libraryId, request.params.storyId);
        const target = { ...request.params, ...request.query, versionNo: request.query.versionNo ?? story.versionNo };
        await downloads.resolve(target);
        const { url, expiresAt } = signer.signed({ ...target, rendition: target.rendition ?? "original" });
        return ok({ url, expiresAt: new Date(expiresAt * 1000).toISOString() });
      },
    );
    app.get(
      `${MEDIA_PATH}/:token`,
      {
        config: { public: true },
        schema: {
          tags: ["stories"],
          summary:
            "A story's file by signed URL (no bearer token): Range, ETag, inline only for safe image/video/audio types",
          params: z.object({ token: z.string().max(1000) }),
          response: {
            200: z.any().describe("the file's bytes"),
            206: z.any().describe("a byte range of the file (Range: bytes=…)"),
            304: z.any().describe("not modified (If-None-Match)"),
            403: errorEnvelope,
            404: errorEnvelope,
            416: errorEnvelope,
          },
        },
      },
      async (request, reply) => {
        const verified = signer.verify(request.params.token);
        if (typeof verified === "string") throw new Forbidden(REFUSALS[verified], `media_url_${verified}`);
        const resolved = await downloads.resolve(verified);
        return sendBlob(request, reply, downloads.blobs, {
          key: resolved.blobKey,
          fileName: resolved.fileName,
          contentType: resolved.contentType,
          disposition: "inline",
        });
      },
    );
  };
}
