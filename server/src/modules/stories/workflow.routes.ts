import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { StoryType } from "../../db/schema.js";
import { envelope, errorEnvelope, ok, page } from "../../http/envelope.js";
import type { Action } from "../access/permissions.js";
import type { FoldersService } from "../folders/folders.service.js";
import type { LibrariesService } from "../libraries/libraries.service.js";
import { actorOf, errors, sendStoriesZip, sendStoryFile } from "./stories.routes.js";
import { downloadQuery, storySchema } from "./stories.schema.js";
import type { StoriesService } from "./stories.service.js";
import type { StoryDownloads } from "./story-downloads.service.js";
import { createForm, type StoryLinksService } from "./story-links.service.js";
import type { StoryQueries } from "./story-queries.service.js";
import { MEDIA_TYPES, STORY_TYPES } from "./story-types.js";
import {
  abParams,
  commitBody,
  createFormQuery,
  createFormSchema,
  createStoryBody,
  defaultLibraryQuery,
  defaultLibrarySchema,
  downloadParams,
  editBody,
  editParams,
  editQuery,
  favoriteBody,
  favoriteDeleteQuery,
  favoriteListQuery,
  favoriteSchema,
  libIdParams,
  newVersionBody,
  publishBody,
  publishRecordSchema,
  shareQuery,
  shareSchema,
} from "./workflow.schema.js";

/** The upload page that holds the right to create each type. */
const UPLOAD_PERMISSION: Record<StoryType, string> = {
  photo: "upload.image",
  video: "upload.video",
  audio: "upload.audio",
  composite: "story.list",
};
const STORIES = "story.list";

const uploadAccess = (type: StoryType, action: Action): { permission: string; action: Action } => ({
  permission: UPLOAD_PERMISSION[type],
  action,
});

export interface WorkflowServices {
  stories: StoriesService;
  queries: StoryQueries;
  links: StoryLinksService;
  downloads: StoryDownloads;
  libraries: LibrariesService;
  folders: FoldersService;
}

/** The workflow-story-* calls of spec section 7: create, commit, new version, edit, delete, favourite, publish, share, download. */
export function workflowRoutes(services: WorkflowServices): FastifyPluginAsyncZod {
  const { stories, queries, links, downloads, libraries, folders } = services;
  const view = async (story: Parameters<StoryQueries["views"]>[0][number]) => (await queries.views([story]))[0]!;
  return async (app) => {
    for (const type of STORY_TYPES) {
      app.get(
        `/workflow-story-create/${type}`,
        {
          config: { access: uploadAccess(type, "query") },
          schema: {
            tags: ["workflow"],
            summary: `What the ${type} create form needs: the target library and folder (defaults filled in)`,
            querystring: createFormQuery,
            response: { 200: envelope(createFormSchema), ...errors },
          },
        },
        async (request) => ok(await createForm(links, libraries, folders, actorOf(request), type, request.query)),
      );
      app.post(
        `/workflow-story-create/${type}`,
        {
          config: { access: uploadAccess(type, "add") },
          schema: {
            tags: ["workflow"],
            summary: `Create a ${type} story as a draft from metadata`,
            description:
              type === "composite"
                ? "`members` lists the stories the composite groups."
                : "Files arrive through the resumable upload (/uploads), which creates the draft with its original; this call creates a draft without a file.",
            body: createStoryBody,
            response: { 200: envelope(storySchema), ...errors },
          },
        },
        async (request) => ok(await view(await stories.createDraft(actorOf(request), type, request.body))),
      );
      app.put(
        `/workflow-story-edit/${type}/:id`,
        {
          config: { access: { permission: STORIES, action: "edit" } },
          schema: {
            tags: ["workflow"],
            summary: `Edit a ${type} story's metadata, folder${type === "composite" ? " or members" : ""}`,
            params: editParams,
            querystring: editQuery,
            body: editBody,
            response: { 200: envelope(storySchema), ...errors },
          },
        },
        async (request) =>
          ok(
            await view(
              await stories.edit(actorOf(request), type, request.query.libraryId, request.params.id, request.body),
            ),
          ),
      );
    }
    for (const type of MEDIA_TYPES) {
      app.post(
        `/workflow-story-create/${type}/commit`,
        {
          config: { access: uploadAccess(type, "add") },
          schema: {
            tags: ["workflow"],
            summary: `Commit ${type} drafts (with the form's metadata); media processing is queued`,
            body: commitBody,
            response: { 200: envelope(z.array(storySchema)), ...errors },
          },
        },
        async (request) => ok(await queries.views(await stories.commit(actorOf(request), type, request.body))),
      );
      app.post(
        `/workflow-story-create/newversion/${type}`,
        {
          config: { access: { permission: STORIES, action: "edit" } },
          schema: {
            tags: ["workflow"],
            summary: `A new version of a ${type} story from a draft carrying the new file`,
            description: "properties.lastVersion becomes the previous version's oid; every version's files are kept.",
            body: newVersionBody,
            response: { 200: envelope(storySchema), ...errors },
          },
        },
        async (request) => ok(await view(await stories.newVersion(actorOf(request), type, request.body))),
      );
    }
    app.delete(
      "/workflow-story-delete/:lib/:id",
      {
        config: { access: { permission: STORIES, action: "delete" }, library: { param: "lib", level: "write" } },
        schema: {
          tags: ["workflow"],
          summary: "Delete a story with every version and file",
          params: libIdParams,
          response: { 200: envelope(z.null()), ...errors },
        },
      },
      async (request) => {
        await stories.delete(actorOf(request), request.params.lib, request.params.id);
        return ok(null);
      },
    );
    app.post(
      "/workflow-story-favorite",
      {
        config: { access: "authenticated" },
        schema: {
          tags: ["workflow"],
          summary: "Add a story to the caller's favourites (again: no change)",
          body: favoriteBody,
          response: { 200: envelope(favoriteSchema), ...errors },
        },
      },
      async (request) => ok(await links.addFavorite(actorOf(request), request.body)),
    );
    app.get(
      "/workflow-story-favorite",
      {
        config: { access: "authenticated" },
        schema: {
          tags: ["workflow"],
          summary: "The caller's favourites, newest first",
          querystring: favoriteListQuery,
          response: { 200: envelope(page(favoriteSchema)), ...errors },
        },
      },
      async (request) => {
        const { content, total } = await links.favorites(actorOf(request), request.query);
        return ok({ content, totalElements: total, size: request.query.size, number: request.query.page });
      },
    );
    app.delete(
      "/workflow-story-favorite",
      {
        config: { access: "authenticated" },
        schema: {
          tags: ["workflow"],
          summary: "Remove a story from the caller's favourites",
          querystring: favoriteDeleteQuery,
          response: { 200: envelope(z.null()), ...errors },
        },
      },
      async (request) => {
        await links.removeFavorite(actorOf(request), request.query);
        return ok(null);
      },
    );
    app.post(
      "/workflow-story-publish/:a/:b",
      {
        config: { access: { permission: STORIES, action: "update" }, library: { param: "a", level: "write" } },
        schema: {
          tags: ["workflow"],
          summary: "Publish a committed story: a publish record, the story becomes published",
          params: abParams,
          body: publishBody,
          response: { 200: envelope(publishRecordSchema), ...errors },
        },
      },
      async (request) => ok(await links.publish(actorOf(request), request.params.a, request.params.b, request.body)),
    );
    app.get(
      "/workflow-story-share/story/:a/:b",
      {
        config: { access: { permission: "share.netdisk", action: "add" }, library: { param: "a", level: "read" } },
        schema: {
          tags: ["workflow"],
          summary: "Create a share link: an unguessable token that expires",
          params: abParams,
          querystring: shareQuery,
          response: { 200: envelope(shareSchema), ...errors },
        },
      },
      async (request) =>
        ok(await links.share(actorOf(request), request.params.a, request.params.b, request.query.expiresInDays)),
    );
    app.get(
      "/workflow-story-download/:a/:b",
      {
        config: { access: { permission: "upload.download", action: "get" }, library: { param: "a", level: "read" } },
        schema: {
          tags: ["workflow"],
          summary: "Download a story's original or a rendition as an attachment; several stories as one zip",
          description: "Each story downloaded is recorded as a story action. `versionNo` applies to one story only.",
          params: downloadParams,
          querystring: downloadQuery,
          response: {
            200: z.any().describe("the file's bytes, or a zip"),
            206: z.any().describe("a byte range of one story's file (Range: bytes=…)"),
            416: errorEnvelope,
            ...errors,
          },
        },
      },
      async (request, reply) => {
        const { a: libraryId, b: storyIds } = request.params;
        if (storyIds.length > 1)
          return sendStoriesZip(downloads, request, reply, { libraryId, storyIds, ...request.query });
        return sendStoryFile(
          downloads,
          request,
          reply,
          { libraryId, storyId: storyIds[0]!, ...request.query },
          "attachment",
        );
      },
    );
    app.get(
      "/default-library",
      {
        config: { access: "authenticated" },
        schema: {
          tags: ["workflow"],
          summary: "The caller's default library and folder (product unless they chose another)",
          response: { 200: envelope(defaultLibrarySchema), ...errors },
        },
      },
      async (request) => ok(await links.defaultLibrary(actorOf(request))),
    );
    app.post(
      "/default-library",
      {
        config: { access: "authenticated" },
        schema: {
          tags: ["workflow"],
          summary: "Save the caller's default library (and folder) from a front-area path",
          querystring: defaultLibraryQuery,
          response: { 200: envelope(defaultLibrarySchema), ...errors },
        },
      },
      async (request) => ok(await links.setDefaultLibrary(actorOf(request), request.query.path)),
    );
  };
}
