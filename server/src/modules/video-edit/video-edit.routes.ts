import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorEnvelope, apiErrorResponses as errors, ok, page } from "../../http/envelope.js";
import { apiRoute } from "../../http/route.js";
import { actorOf } from "../auth/actor.js";
import { currentUser } from "../auth/auth.plugin.js";
import { can } from "../auth/route-config.js";
import type { BlobStore } from "../blobs/blob-store.js";
import { sendBlob } from "../blobs/send-blob.js";
import type { RenderStories } from "./render-story.js";
import type { ProjectRow } from "./video-edit.repository.js";
import {
  createdStorySchema,
  createProjectBody,
  createStoryBody,
  draftEdlBody,
  idParams,
  projectSchema,
  projectSummarySchema,
  projectsQuery,
  renderSchema,
  saveProjectBody,
  startRenderBody,
  storyEdlParams,
  storyEdlQuery,
} from "./video-edit.schema.js";
import type { VideoEditService } from "./video-edit.service.js";

/** Making videos is the video upload page's right; reading a story's EDL is the search page's. */
const VIDEO = "upload.video";

const tags = ["video-edit"];

function projectView(row: Omit<ProjectRow, "edl" | "owner_id"> & { edl?: unknown }) {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    revision: row.revision,
    story: row.story_id && row.story_library_id ? { libraryId: row.story_library_id, storyId: row.story_id } : null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(row.edl === undefined ? {} : { edl: row.edl }),
  };
}

/** The video editor's calls (docs/video-editor.md): projects, renders, create-from-URL, a story's EDL. */
export function videoEditRoutes(deps: {
  service: VideoEditService;
  stories: RenderStories;
  blobs: BlobStore;
}): FastifyPluginAsyncZod {
  const { service, stories, blobs } = deps;
  const project = (row: ProjectRow) => projectSchema.parse(projectView(row));
  return async (app) => {
    app.get(
      "/video-edit/projects",
      apiRoute(
        can(VIDEO, "query"),
        { tags, summary: "The caller's video editor projects, the last changed first", querystring: projectsQuery },
        page(projectSummarySchema),
      ),
      async (request) => {
        const { page: number, size } = request.query;
        const { rows, total } = await service.projects(currentUser(request), number, size);
        return ok({ content: rows.map(projectView), totalElements: total, size, number });
      },
    );
    app.post(
      "/video-edit/projects",
      apiRoute(can(VIDEO, "add"), { tags, summary: "A new project", body: createProjectBody }, projectSchema),
      async (request) => ok(project(await service.createProject(currentUser(request), request.body))),
    );
    app.get(
      "/video-edit/projects/:id",
      apiRoute(
        can(VIDEO, "query"),
        { tags, summary: "One of the caller's projects, to reopen", params: idParams },
        projectSchema,
      ),
      async (request) => ok(project(await service.project(currentUser(request), request.params.id))),
    );
    app.put(
      "/video-edit/projects/:id",
      apiRoute(
        can(VIDEO, "edit"),
        {
          tags,
          summary: "Autosave a project's EDL",
          description: "409 `project_revision` when the project was saved since `revision` (another tab): reopen it.",
          params: idParams,
          body: saveProjectBody,
        },
        projectSchema,
      ),
      async (request) => ok(project(await service.saveProject(currentUser(request), request.params.id, request.body))),
    );
    app.delete(
      "/video-edit/projects/:id",
      apiRoute(can(VIDEO, "edit"), { tags, summary: "Delete a project", params: idParams }, z.null()),
      async (request) => {
        await service.deleteProject(currentUser(request), request.params.id);
        return ok(null);
      },
    );
    app.post(
      "/video-edit/renders",
      apiRoute(
        can(VIDEO, "add"),
        {
          tags,
          summary: "Render an EDL on the server (a job); poll GET /video-edit/renders/{id}",
          description:
            "Every story the EDL names must be readable by the caller (404 otherwise) and of the kind its use needs (400 naming the field); each is pinned to its current version unless the EDL names one. Limits (200 clips, 3 hours, 500-character texts…) are refused with 400 naming the limit.",
          body: startRenderBody,
        },
        renderSchema,
      ),
      async (request) => ok(await service.startRender(currentUser(request), request.body)),
    );
    app.get(
      "/video-edit/renders/:id",
      apiRoute(
        can(VIDEO, "query"),
        { tags, summary: "A render's state and progress (0-100)", params: idParams },
        renderSchema,
      ),
      async (request) => ok(await service.render(currentUser(request), request.params.id)),
    );
    app.delete(
      "/video-edit/renders/:id",
      apiRoute(
        can(VIDEO, "add"),
        { tags, summary: "Cancel a render: ffmpeg stops and nothing is stored", params: idParams },
        renderSchema,
      ),
      async (request) => ok(await service.cancelRender(currentUser(request), request.params.id)),
    );
    app.get(
      "/video-edit/renders/:id/file",
      {
        config: { access: { permission: VIDEO, action: "query" } },
        schema: {
          tags,
          summary: "The rendered MP4 (the caller's renders only; ranges for players)",
          params: idParams,
          response: {
            200: z.any().describe("the MP4"),
            206: z.any().describe("a byte range"),
            416: errorEnvelope,
            ...errors,
          },
        },
      },
      async (request, reply) => {
        const file = await service.renderFile(currentUser(request), request.params.id);
        return sendBlob(request, reply, blobs, {
          key: file.blobKey,
          fileName: file.fileName,
          contentType: "video/mp4",
          disposition: "inline",
        });
      },
    );
    app.post(
      "/video-edit/stories",
      apiRoute(
        can(VIDEO, "add"),
        {
          tags,
          summary: "Create a video story from a render's URL (the dialog's create-from-URL)",
          description:
            "Write access to the library. The render becomes a draft video story whose processing is queued (poll GET /video-trans-tasks with its URL until 100), with the EDL (`edit`) and sidecar captions (`captions`) as files of its version and the poster frame as its cover. Save it with POST /workflow-story-create/video/commit, or onto the story it edits with POST /workflow-story-create/newversion/video. A second call for the same render answers the same story; 409 `render_not_done` before the render has finished.",
          body: createStoryBody,
        },
        createdStorySchema,
      ),
      async (request) => ok(await stories.createStory(actorOf(request), request.body)),
    );
    app.get(
      "/video-edit/stories/:libraryId/:storyId/edl",
      apiRoute(
        { access: { permission: "search", action: "get" }, library: { param: "libraryId", level: "read" } },
        {
          tags,
          summary: "The EDL a video story's version was rendered from, to reopen the edit",
          description: "404 when the version was not made by the video editor.",
          params: storyEdlParams,
          querystring: storyEdlQuery,
        },
        draftEdlBody,
      ),
      async (request) =>
        ok(await stories.storyEdl(request.params.libraryId, request.params.storyId, request.query.versionNo)),
    );
    app.get(
      "/video-edit/stories/:libraryId/:storyId/project",
      apiRoute(
        { access: { permission: VIDEO, action: "query" }, library: { param: "libraryId", level: "read" } },
        {
          tags,
          summary: "The caller's project a video story's version was rendered from, to go on with it",
          description:
            "null when the video editor did not make the version (or it has no original), or its project is gone or another user's (the editor then starts a new project on its first autosave).",
          params: storyEdlParams,
          querystring: storyEdlQuery,
        },
        projectSummarySchema.nullable(),
      ),
      async (request) => {
        const { libraryId, storyId } = request.params;
        const row = await stories.storyProject(actorOf(request), libraryId, storyId, request.query.versionNo);
        return ok(row ? projectSummarySchema.parse(projectView(row)) : null);
      },
    );
  };
}
