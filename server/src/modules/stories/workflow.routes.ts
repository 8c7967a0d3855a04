import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { StoryType } from "../../db/schema.js";
import { envelope, errorEnvelope, apiErrorResponses as errors, ok } from "../../http/envelope.js";
import { apiRoute } from "../../http/route.js";
import { actorOf } from "../auth/actor.js";
import type { Action, PermissionKey } from "../auth/permissions.js";
import { can, inLibrary } from "../auth/route-config.js";
import type { FoldersService } from "../folders/folders.service.js";
import type { LibrariesService } from "../libraries/libraries.service.js";
import type { UserSettingsService } from "../user-settings/user-settings.service.js";
import { createForm } from "./create-form.js";
import { sendStoriesZip, sendStoryFile } from "./send-story-files.js";
import { downloadQuery, storyParams, storySchema } from "./stories.schema.js";
import { StaleStory, type StoriesService } from "./stories.service.js";
import type { StoryDownloads } from "./story-downloads.service.js";
import { revisionOf, storyEtag } from "./story-etag.js";
import type { StoryQueries } from "./story-queries.service.js";
import { MEDIA_TYPES, STORY_TYPES } from "./story-types.js";
import {
  commitBody,
  createFormQuery,
  createFormSchema,
  createStoryBody,
  downloadParams,
  editBody,
  editParams,
  editQuery,
  newVersionBody,
  ZIP_MAX_STORIES,
  zipDownloadParams,
  zipDownloadQuery,
} from "./workflow.schema.js";

/** The upload page that holds the right to create each type. */
const UPLOAD_PERMISSION: Record<StoryType, PermissionKey> = {
  photo: "upload.image",
  video: "upload.video",
  audio: "upload.audio",
  composite: "story.list",
};
const STORIES = "story.list";

const uploadAccess = (type: StoryType, action: Action): { permission: PermissionKey; action: Action } => ({
  permission: UPLOAD_PERMISSION[type],
  action,
});

export interface WorkflowServices {
  stories: StoriesService;
  queries: StoryQueries;
  downloads: StoryDownloads;
  libraries: LibrariesService;
  folders: FoldersService;
  settings: UserSettingsService;
}

/**
 * The workflow-story-* calls of spec section 7 that make and change stories:
 * create, commit, new version, edit, delete, download. Favourites, publish
 * and share are their own modules' routes.
 */
export function workflowRoutes(services: WorkflowServices): FastifyPluginAsyncZod {
  const { stories, queries, downloads } = services;
  const view = async (story: Parameters<StoryQueries["views"]>[0][number]) => (await queries.views([story]))[0]!;
  return async (app) => {
    for (const type of STORY_TYPES) {
      app.get(
        `/workflow-story-create/${type}`,
        apiRoute(
          { access: uploadAccess(type, "query") },
          {
            tags: ["workflow"],
            summary: `What the ${type} create form needs: the target library and folder (defaults filled in)`,
            querystring: createFormQuery,
          },
          createFormSchema,
        ),
        async (request) => ok(await createForm(services, actorOf(request), type, request.query)),
      );
      app.post(
        `/workflow-story-create/${type}`,
        apiRoute(
          { access: uploadAccess(type, "add") },
          {
            tags: ["workflow"],
            summary: `Create a ${type} story as a draft from metadata`,
            description:
              type === "composite"
                ? "`members` lists the stories the composite groups."
                : "Files arrive through the resumable upload (/uploads), which creates the draft with its original; this call creates a draft without a file.",
            body: createStoryBody,
          },
          storySchema,
        ),
        async (request) => ok(await view(await stories.createDraft(actorOf(request), type, request.body))),
      );
      app.put(
        `/workflow-story-edit/${type}/:storyId`,
        {
          config: { access: { permission: STORIES, action: "edit" } },
          schema: {
            tags: ["workflow"],
            summary: `Edit a ${type} story's metadata, folder${type === "composite" ? " or members" : ""}`,
            description:
              "Send `If-Match` with the ETag of the story the edit is based on (its GET's `ETag`, or `\"<revision>\"`): when someone changed the story since, the edit is refused with 409 `stale_revision` and `data` holding the story as it is now. Without If-Match (or with `*`) the edit applies over whatever is there. The answer carries the new ETag; the story's history records each changed field from what to what.",
            params: editParams,
            querystring: editQuery,
            body: editBody,
            response: {
              200: envelope(storySchema),
              ...errors,
              409: errorEnvelope.extend({
                data: storySchema.optional().describe("with `stale_revision`: the story as it is now"),
              }),
            },
          },
        },
        async (request, reply) => {
          const actor = actorOf(request);
          const { libraryId } = request.query;
          const basedOn = revisionOf(request.headers["if-match"]);
          try {
            const story = await stories.edit(actor, type, libraryId, request.params.storyId, request.body, { basedOn });
            reply.header("etag", storyEtag(story));
            return ok(await view(story));
          } catch (error) {
            if (!(error instanceof StaleStory)) throw error;
            reply.header("etag", storyEtag(error.current));
            return reply.status(409).send({
              code: 409,
              msg: error.message,
              error: error.code,
              msgCode: error.msgCode,
              msgParams: error.msgParams,
              data: await view(error.current),
            });
          }
        },
      );
    }
    for (const type of [...MEDIA_TYPES, "composite" as const]) {
      app.post(
        `/workflow-story-create/${type}/commit`,
        apiRoute(
          { access: uploadAccess(type, "add") },
          {
            tags: ["workflow"],
            summary:
              type === "composite"
                ? "Commit composite drafts (with the form's metadata); a composite without members is refused (400 `empty_composite`)"
                : `Commit ${type} drafts (with the form's metadata); media processing is queued`,
            body: commitBody,
          },
          z.array(storySchema),
        ),
        async (request) => ok(await queries.views(await stories.commit(actorOf(request), type, request.body))),
      );
      if (type === "composite") continue;
      app.post(
        `/workflow-story-create/newversion/${type}`,
        apiRoute(
          can(STORIES, "edit"),
          {
            tags: ["workflow"],
            summary: `A new version of a ${type} story from a draft carrying the new file`,
            description: "properties.lastVersion becomes the previous version's oid; every version's files are kept.",
            body: newVersionBody,
          },
          storySchema,
        ),
        async (request) => ok(await view(await stories.newVersion(actorOf(request), type, request.body))),
      );
    }
    app.delete(
      "/workflow-story-delete/:libraryId/:storyId",
      apiRoute(
        inLibrary({ permission: STORIES, action: "delete" }, "write"),
        { tags: ["workflow"], summary: "Delete a story with every version and file", params: storyParams },
        z.null(),
      ),
      async (request) => {
        await stories.delete(actorOf(request), request.params.libraryId, request.params.storyId);
        return ok(null);
      },
    );
    app.get(
      "/workflow-story-download/:libraryId/:storyIds",
      {
        config: inLibrary({ permission: "upload.download", action: "get" }, "read"),
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
        const { libraryId, storyIds } = request.params;
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
      "/workflow-story-download/:libraryId",
      {
        config: inLibrary({ permission: "upload.download", action: "get" }, "read"),
        schema: {
          tags: ["workflow"],
          summary: `Several stories of one library as one zip: up to ${ZIP_MAX_STORIES} ids in the query`,
          description:
            "The same zip as /workflow-story-download/{libraryId}/{storyIds} with several ids, for lists too long for a path parameter. Each story downloaded is recorded as a story action.",
          params: zipDownloadParams,
          querystring: zipDownloadQuery,
          response: { 200: z.any().describe("a zip of the stories' files"), ...errors },
        },
      },
      async (request, reply) =>
        sendStoriesZip(downloads, request, reply, { libraryId: request.params.libraryId, ...request.query }),
    );
  };
}
