import { Readable } from "node:stream";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { commonErrorResponses, envelope, errorEnvelope, ok, page } from "../../http/envelope.js";
import { Invalid } from "../../http/errors.js";
import { currentUser } from "../auth/auth.plugin.js";
import { facetsSchema } from "../search/search.schema.js";
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
import {
  contentDisposition,
  type DownloadRequest,
  parseRange,
  RangeNotSatisfiable,
  type StoryDownloads,
} from "./story-downloads.service.js";
import type { StoryLinksService } from "./story-links.service.js";
import type { StoryQueries } from "./story-queries.service.js";
import type { Actor } from "./story-types.js";
import { uniqueNames, zipStream } from "./zip-stream.js";

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
 * Streams a story's file. `attachment` downloads are recorded as story
 * actions; inline ones (thumbnails and proxies for display) only when they
 * fetch the original. Served with nosniff and a sandboxing CSP either way.
 */
export async function sendStoryFile(
  downloads: StoryDownloads,
  request: FastifyRequest,
  reply: FastifyReply,
  target: DownloadRequest,
  kind: "attachment" | "inline",
) {
  const resolved = await downloads.resolve(target);
  let range: ReturnType<typeof parseRange>;
  try {
    range = parseRange(request.headers.range, resolved.size);
  } catch (error) {
    if (error instanceof RangeNotSatisfiable) reply.header("content-range", `bytes */${error.size}`);
    throw error;
  }
  const stream = await downloads.open(resolved.blobKey, range);
  // A player seeking through a video asks for many ranges: only the start of a download is recorded.
  const fromStart = range === undefined || range.start === 0;
  if (fromStart && (kind === "attachment" || (target.rendition ?? "original") === "original")) {
    await downloads.record(actorOf(request), target, resolved);
  }
  reply
    .header("content-type", resolved.contentType)
    .header("accept-ranges", "bytes")
    .header("content-disposition", contentDisposition(kind, resolved.fileName))
    .header("x-content-type-options", "nosniff")
    .header("content-security-policy", "sandbox; default-src 'none'");
  if (range) {
    reply
      .status(206)
      .header("content-range", `bytes ${range.start}-${range.end}/${resolved.size}`)
      .header("content-length", range.end - range.start + 1);
  } else {
    reply.header("content-length", resolved.size);
  }
  return reply.send(stream);
}

/** Several stories of one library as one zip (each download recorded). */
export async function sendStoriesZip(
  downloads: StoryDownloads,
  request: FastifyRequest,
  reply: FastifyReply,
  target: { libraryId: string; storyIds: string[]; rendition?: string; versionNo?: number },
) {
  if (target.versionNo !== undefined) throw new Invalid("versionNo: give it for one story only");
  const actor = actorOf(request);
  const files = [];
  for (const storyId of target.storyIds) {
    const one = { libraryId: target.libraryId, storyId, rendition: target.rendition };
    files.push({ one, resolved: await downloads.resolve(one) });
  }
  for (const { one, resolved } of files) await downloads.record(actor, one, resolved);
  const names = uniqueNames(files.map((file) => file.resolved.fileName));
  const entries = files.map((file, index) => ({
    name: names[index]!,
    open: () => downloads.open(file.resolved.blobKey),
  }));
  return reply
    .header("content-type", "application/zip")
    .header("content-disposition", contentDisposition("attachment", `${target.libraryId}-${files.length}-stories.zip`))
    .header("x-content-type-options", "nosniff")
    .send(Readable.from(zipStream(entries)));
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
          response: { 200: envelope(page(storySchema).extend({ facets: facetsSchema.optional() })), ...errors },
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
