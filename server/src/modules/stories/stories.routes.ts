import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { commonErrorResponses, envelope, errorEnvelope, ok, page } from "../../http/envelope.js";
import { Invalid } from "../../http/errors.js";
import { currentUser } from "../auth/auth.plugin.js";
import { sendBlob } from "../blobs/send-blob.js";
import { sendZip } from "../blobs/send-zip.js";
import { facetsSchema, totalCappedSchema } from "../search/search.schema.js";
import {
  createRelationBody,
  downloadQuery,
  duplicateGroupSchema,
  myStoriesParams,
  myStoriesQuery,
  relationIdParams,
  relationParams,
  relationSchema,
  repeatQuery,
  storyActionSchema,
  storyActionsQuery,
  storyListQuery,
  storyParams,
  storySchema,
  usedInfoSchema,
  versionParams,
  versionSchema,
} from "./stories.schema.js";
import type { DownloadRequest, StoryDownloads } from "./story-downloads.service.js";
import type { StoryLinksService } from "./story-links.service.js";
import type { StoryQueries } from "./story-queries.service.js";
import type { Actor } from "./story-types.js";

export const errors = {
  ...commonErrorResponses,
  401: errorEnvelope,
  403: errorEnvelope,
  404: errorEnvelope,
  409: errorEnvelope,
};

/** Searching and looking at stories is the search page's permission. */
const SEARCH = "search";

export function actorOf(request: FastifyRequest): Actor {
  const user = currentUser(request);
  return { id: user.id, username: user.username, admin: user.admin, roleId: user.roleId, ip: request.ip };
}

/**
 * Whether a request reads the file from its first byte. A single range that
 * starts later (`bytes=500-`, `bytes=-500`) is a player seeking; anything
 * else (no range, `bytes=0-…`, several ranges, which get the whole file) is
 * a download starting.
 */
function fromFirstByte(request: FastifyRequest): boolean {
  const single = /^bytes=(\d*)-(\d*)$/.exec(request.headers.range?.trim() ?? "");
  if (!single) return true;
  const [, first, last] = single;
  return first === "" ? last === "" : Number(first) === 0;
}

/**
 * Sends a story's file through `sendBlob` (single ranges, validators, the
 * user-content headers, a presigned redirect on S3). Attachments are recorded
 * as story actions; inline files (thumbnails, covers, proxies shown in the
 * page) only when they are the original. Of ranged requests only the one
 * from byte 0 counts, and HEAD not at all.
 */
export async function sendStoryFile(
  downloads: StoryDownloads,
  request: FastifyRequest,
  reply: FastifyReply,
  target: DownloadRequest,
  disposition: "attachment" | "inline",
) {
  const resolved = await downloads.resolve(target);
  const wholeDownload = disposition === "attachment" || (target.rendition ?? "original") === "original";
  if (wholeDownload && request.method !== "HEAD" && fromFirstByte(request)) {
    await downloads.record(actorOf(request), [{ request: target, resolved }]);
  }
  return sendBlob(request, reply, downloads.blobs, {
    key: resolved.blobKey,
    fileName: resolved.fileName,
    contentType: resolved.contentType,
    disposition,
  });
}

/** Several stories of one library as one zip through `sendZip`; each story's download is recorded. */
export async function sendStoriesZip(
  downloads: StoryDownloads,
  request: FastifyRequest,
  reply: FastifyReply,
  target: { libraryId: string; storyIds: string[]; rendition?: string; versionNo?: number },
) {
  if (target.versionNo !== undefined) throw new Invalid("versionNo: give it for one story only");
  const files = [];
  for (const storyId of target.storyIds) {
    const one = { libraryId: target.libraryId, storyId, rendition: target.rendition };
    files.push({ request: one, resolved: await downloads.resolve(one) });
  }
  if (request.method !== "HEAD") await downloads.record(actorOf(request), files);
  return sendZip(
    reply,
    downloads.blobs,
    files.map(({ resolved }) => ({ key: resolved.blobKey, name: resolved.fileName })),
    `${target.libraryId}-${files.length}-stories.zip`,
  );
}

export function storiesRoutes(services: {
  queries: StoryQueries;
  links: StoryLinksService;
  downloads: StoryDownloads;
}): FastifyPluginAsyncZod {
  const { queries, links, downloads } = services;
  return async (app) => {
    app.get(
      "/stories",
      {
        config: { access: { permission: SEARCH, action: "query" } },
        schema: {
          tags: ["stories"],
          summary:
            "List and search stories (full text, filters, facets, paging); drafts are listed only for the user who made them",
          querystring: storyListQuery,
          response: {
            200: envelope(
              page(storySchema).extend({
                totalCapped: totalCappedSchema,
                facets: facetsSchema.optional(),
              }),
            ),
            ...errors,
          },
        },
      },
      async (request) => {
        const query = request.query;
        const facets = query.facets ?? Boolean(query.fulltext?.trim());
        const found = await queries.list(actorOf(request), { ...query, facets });
        return ok({
          content: found.content,
          totalElements: found.total,
          size: query.size,
          number: query.page,
          ...(found.capped ? { totalCapped: true } : {}),
          ...(found.facets ? { facets: found.facets } : {}),
        });
      },
    );
    app.get(
      "/stories/mystories/:x",
      {
        config: { access: { permission: "upload.my", action: "query" } },
        schema: {
          tags: ["stories"],
          summary: "The caller's own stories (the ones they created), in a library or in all",
          params: myStoriesParams,
          querystring: myStoriesQuery,
          response: { 200: envelope(page(storySchema)), ...errors },
        },
      },
      async (request) => {
        const actor = actorOf(request);
        const libraryId = request.params.x === "all" ? undefined : request.params.x;
        const { content, total } = await queries.list(actor, { ...request.query, libraryId }, actor.id);
        return ok({ content, totalElements: total, size: request.query.size, number: request.query.page });
      },
    );
    app.get(
      "/stories/repeat",
      {
        config: { access: { permission: SEARCH, action: "query" } },
        schema: {
          tags: ["stories"],
          summary: "Duplicates: exact (same SHA-256) and near (photos whose perceptual hashes are close)",
          querystring: repeatQuery,
          response: { 200: envelope(z.array(duplicateGroupSchema)), ...errors },
        },
      },
      async (request) => ok(await queries.repeat(actorOf(request), request.query)),
    );
    app.get(
      "/stories/relation/:a/:b",
      {
        config: { access: { permission: SEARCH, action: "get" }, library: { param: "a", level: "read" } },
        schema: {
          tags: ["stories"],
          summary: "Relations of story b in library a (to stories the caller can read)",
          params: relationParams,
          response: { 200: envelope(z.array(relationSchema)), ...errors },
        },
      },
      async (request) => ok(await links.relations(actorOf(request), request.params.a, request.params.b)),
    );
    app.post(
      "/stories/relation/:a/:b",
      {
        config: { access: { permission: "story.list", action: "edit" }, library: { param: "a", level: "write" } },
        schema: {
          tags: ["stories"],
          summary: "Relate story b of library a to another story the caller can read",
          params: relationParams,
          body: createRelationBody,
          response: { 200: envelope(z.array(relationSchema)), ...errors },
        },
      },
      async (request) => ok(await links.relate(actorOf(request), request.params.a, request.params.b, request.body)),
    );
    app.delete(
      "/stories/relation/:a/:b/:relationId",
      {
        config: { access: { permission: "story.list", action: "edit" }, library: { param: "a", level: "write" } },
        schema: {
          tags: ["stories"],
          summary: "Remove a relation of story b",
          params: relationIdParams,
          response: { 200: envelope(z.null()), ...errors },
        },
      },
      async (request) => {
        await links.unrelate(actorOf(request), request.params.a, request.params.b, request.params.relationId);
        return ok(null);
      },
    );
    app.get(
      "/stories/download/:libraryId/:storyId",
      {
        config: { access: { permission: SEARCH, action: "get" }, library: { param: "libraryId", level: "read" } },
        schema: {
          tags: ["stories"],
          summary: "A story's file for display (inline): the original or a rendition, of a version",
          description: "Downloads of the original are recorded as story actions; renditions shown in lists are not.",
          params: storyParams,
          querystring: downloadQuery,
          response: {
            200: z.any().describe("the file's bytes"),
            206: z.any().describe("a byte range of the file (Range: bytes=…)"),
            416: errorEnvelope,
            ...errors,
          },
        },
      },
      async (request, reply) =>
        sendStoryFile(downloads, request, reply, { ...request.params, ...request.query }, "inline"),
    );
    app.get(
      "/stories/:libraryId/:storyId",
      {
        config: { access: { permission: SEARCH, action: "get" }, library: { param: "libraryId", level: "read" } },
        schema: {
          tags: ["stories"],
          summary: "One story",
          params: storyParams,
          response: { 200: envelope(storySchema), ...errors },
        },
      },
      async (request) => ok(await queries.get(request.params.libraryId, request.params.storyId)),
    );
    app.get(
      "/stories/:libraryId/:storyId/versions",
      {
        config: { access: { permission: SEARCH, action: "get" }, library: { param: "libraryId", level: "read" } },
        schema: {
          tags: ["stories"],
          summary: "Every version of a story with its files, oldest first",
          params: storyParams,
          response: { 200: envelope(z.array(versionSchema)), ...errors },
        },
      },
      async (request) => ok(await queries.versions(request.params.libraryId, request.params.storyId)),
    );
    app.get(
      "/stories/:libraryId/:storyId/versions/:versionNo",
      {
        config: { access: { permission: SEARCH, action: "get" }, library: { param: "libraryId", level: "read" } },
        schema: {
          tags: ["stories"],
          summary: "One version of a story with its files",
          params: versionParams,
          response: { 200: envelope(versionSchema), ...errors },
        },
      },
      async (request) =>
        ok(await queries.version(request.params.libraryId, request.params.storyId, request.params.versionNo)),
    );
    app.get(
      "/statistics/usedInfo",
      {
        config: { access: "authenticated" },
        schema: {
          tags: ["stories"],
          summary: "Counts of committed and published photos, videos, audio and composites the caller can read",
          response: { 200: envelope(usedInfoSchema), ...errors },
        },
      },
      async (request) => ok(await queries.usedInfo(actorOf(request))),
    );
    app.get(
      "/story-actions",
      {
        config: { access: { permission: SEARCH, action: "get" } },
        schema: {
          tags: ["stories"],
          summary: "What happened to a story: who did what, when, from where (newest first)",
          querystring: storyActionsQuery,
          response: { 200: envelope(page(storyActionSchema)), ...errors },
        },
      },
      async (request) => {
        const { content, total } = await links.storyActions(actorOf(request), request.query);
        return ok({ content, totalElements: total, size: request.query.size, number: request.query.page });
      },
    );
  };
}
