import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { envelope, errorEnvelope, apiErrorResponses as errors, ok, page } from "../../http/envelope.js";
import { apiRoute } from "../../http/route.js";
import { actorOf } from "../auth/actor.js";
import { can, inLibrary } from "../auth/route-config.js";
import {
  facetsSchema,
  myStoriesQuery,
  storyListQuery,
  totalCappedSchema,
  totalEstimatedSchema,
} from "../search/search.schema.js";
import type { CompositeTextQueries } from "./composite-text.service.js";
import { sendStoryFile } from "./send-story-files.js";
import {
  compositeTextSchema,
  downloadQuery,
  duplicateGroupSchema,
  myStoriesParams,
  repeatQuery,
  storyActionSchema,
  storyActionsQuery,
  storyParams,
  storySchema,
  usedInfoSchema,
  versionParams,
  versionSchema,
} from "./stories.schema.js";
import type { StoryActionLog } from "./story-actions.service.js";
import type { StoryDownloads } from "./story-downloads.service.js";
import { storyEtag } from "./story-etag.js";
import type { StoryQueries } from "./story-queries.service.js";

/** Searching and looking at stories is the search page's permission. */
const SEARCH = "search";

/** Where the viewer's reads and searches that found nothing are counted (the monitor module's UsageCounter). */
export interface StoryUsageRecorder {
  viewed(userId: string, story: { libraryId: string; storyId: string }): void;
  searched(fulltext: string | undefined, total: number): void;
}

/** A page of GET /stories: a list or a search, with its facets. */
export const storyListResponse = envelope(
  page(storySchema).extend({
    totalCapped: totalCappedSchema,
    totalEstimated: totalEstimatedSchema,
    facets: facetsSchema.optional(),
  }),
);

/** Lists, search, one story, its versions and files, duplicates, counts and its action trail. */
export function storiesRoutes(services: {
  queries: StoryQueries;
  actions: StoryActionLog;
  downloads: StoryDownloads;
  usage?: StoryUsageRecorder;
  texts: CompositeTextQueries;
}): FastifyPluginAsyncZod {
  const { queries, actions, downloads, usage, texts } = services;
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
          response: { 200: storyListResponse, ...errors },
        },
      },
      async (request) => {
        const query = request.query;
        const facets = query.facets ?? Boolean(query.fulltext?.trim());
        const found = await queries.list(actorOf(request), { ...query, facets });
        // The first page of a full-text search only: paging through results is not another search.
        if (query.page === 0) usage?.searched(query.fulltext, found.total);
        return ok({
          content: found.content,
          totalElements: found.total,
          size: query.size,
          number: query.page,
          ...(found.capped ? { totalCapped: true } : {}),
          ...(found.estimated ? { totalEstimated: true } : {}),
          ...(found.facets ? { facets: found.facets } : {}),
        });
      },
    );
    app.get(
      "/stories/mystories/:libraryId",
      apiRoute(
        can("upload.my", "query"),
        {
          tags: ["stories"],
          summary: "The caller's own stories (the ones they created), in a library or in all",
          params: myStoriesParams,
          querystring: myStoriesQuery,
        },
        page(storySchema).extend({ totalEstimated: totalEstimatedSchema }),
      ),
      async (request) => {
        const actor = actorOf(request);
        const libraryId = request.params.libraryId === "all" ? undefined : request.params.libraryId;
        const { content, total, estimated } = await queries.list(actor, { ...request.query, libraryId }, actor.id);
        return ok({
          content,
          totalElements: total,
          size: request.query.size,
          number: request.query.page,
          ...(estimated ? { totalEstimated: true } : {}),
        });
      },
    );
    app.get(
      "/stories/repeat",
      apiRoute(
        can(SEARCH, "query"),
        {
          tags: ["stories"],
          summary: "Duplicates: exact (same SHA-256) and near (photos whose perceptual hashes are close)",
          querystring: repeatQuery,
        },
        z.array(duplicateGroupSchema),
      ),
      async (request) => ok(await queries.repeat(actorOf(request), request.query)),
    );
    app.get(
      "/stories/download/:libraryId/:storyId",
      {
        config: inLibrary({ permission: SEARCH, action: "get" }, "read"),
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
      apiRoute(
        inLibrary({ permission: SEARCH, action: "get" }, "read"),
        {
          tags: ["stories"],
          summary: "One story",
          description: "The `ETag` header is the story's metadata revision: an edit's `If-Match` (docs/stories.md).",
          params: storyParams,
        },
        storySchema,
      ),
      async (request, reply) => {
        const story = await queries.get(request.params.libraryId, request.params.storyId);
        reply.header("etag", storyEtag(story));
        usage?.viewed(actorOf(request).id, request.params);
        return ok(story);
      },
    );
    app.get(
      "/stories/:libraryId/:storyId/text",
      apiRoute(
        inLibrary({ permission: SEARCH, action: "get" }, "read"),
        {
          tags: ["stories"],
          summary: "A composite's text: the sanitised document, its HTML, the HTML split around members, the members",
          description:
            'Read like the story itself. A story that is not a composite (or a composite without text) gives doc null, html "" and no parts. `members` lists the members the caller may read, in the composite\'s order, with a thumbnail URL an <img> may load.',
          params: storyParams,
        },
        compositeTextSchema,
      ),
      async (request) => ok(await texts.forReader(actorOf(request), request.params.libraryId, request.params.storyId)),
    );
    app.get(
      "/stories/:libraryId/:storyId/versions",
      apiRoute(
        inLibrary({ permission: SEARCH, action: "get" }, "read"),
        { tags: ["stories"], summary: "Every version of a story with its files, oldest first", params: storyParams },
        z.array(versionSchema),
      ),
      async (request) => ok(await queries.versions(request.params.libraryId, request.params.storyId)),
    );
    app.get(
      "/stories/:libraryId/:storyId/versions/:versionNo",
      apiRoute(
        inLibrary({ permission: SEARCH, action: "get" }, "read"),
        { tags: ["stories"], summary: "One version of a story with its files", params: versionParams },
        versionSchema,
      ),
      async (request) =>
        ok(await queries.version(request.params.libraryId, request.params.storyId, request.params.versionNo)),
    );
    app.get(
      "/statistics/usedInfo",
      apiRoute(
        { access: "authenticated" },
        {
          tags: ["stories"],
          summary: "Counts of committed and published photos, videos, audio and composites the caller can read",
        },
        usedInfoSchema,
      ),
      async (request) => ok(await queries.usedInfo(actorOf(request))),
    );
    app.get(
      "/story-actions",
      apiRoute(
        can(SEARCH, "get"),
        {
          tags: ["stories"],
          summary: "What happened to a story: who did what, when, from where (newest first)",
          querystring: storyActionsQuery,
        },
        page(storyActionSchema),
      ),
      async (request) => {
        const { content, total } = await actions.list(actorOf(request), request.query);
        return ok({ content, totalElements: total, size: request.query.size, number: request.query.page });
      },
    );
  };
}
