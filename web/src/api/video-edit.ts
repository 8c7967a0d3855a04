/**
 * The video editor's calls (docs/video-editor.md): renders of an edit
 * decision list, the story made from a render (create-from-URL), its
 * processing progress (progress-by-URL), and the save as a new video or as a
 * video's next version. Query keys: `videoEditKeys`.
 */
import { api, call } from "./client";
import type { CallOptions } from "./http";
import type { components, paths } from "./schema";
import type { StoryRef } from "./stories";

type Schemas = components["schemas"];
type JsonBody<P extends keyof paths> = paths[P] extends {
  post: { requestBody?: { content: { "application/json": infer B } } };
}
  ? B
  : never;

export type VideoEdl = Schemas["VideoEdl"];
export type VideoRender =
  paths["/dams/api/v1/video-edit/renders/{id}"]["get"]["responses"][200]["content"]["application/json"]["data"];
export type CreatedVideoStory =
  paths["/dams/api/v1/video-edit/stories"]["post"]["responses"][200]["content"]["application/json"]["data"];
export type CreateVideoStoryBody = JsonBody<"/dams/api/v1/video-edit/stories">;

export const videoEditKeys = {
  all: ["video-edit"] as const,
  render: (id: string) => [...videoEditKeys.all, "render", id] as const,
  storyEdl: (ref: StoryRef) => [...videoEditKeys.all, "story-edl", ref.libraryId, ref.storyId] as const,
};

/** Starts the server's render of an EDL (the `video-edit.render` job). */
export function startRender(edl: VideoEdl, projectId?: string): Promise<VideoRender> {
  return call(api.POST("/dams/api/v1/video-edit/renders", { body: { edl, projectId: projectId ?? null } }), {
    silent: true,
  });
}

export function fetchRender(id: string): Promise<VideoRender> {
  return call(api.GET("/dams/api/v1/video-edit/renders/{id}", { params: { path: { id } } }), { silent: true });
}

/** Cancels a render: a queued one never runs, a running one's ffmpeg is stopped; nothing is stored. */
export function cancelRender(id: string): Promise<unknown> {
  return call(api.DELETE("/dams/api/v1/video-edit/renders/{id}", { params: { path: { id } } }), { silent: true });
}

/** Create-from-URL: the render named by `videoUrl` becomes a draft video story (the same one when asked again). */
export function createVideoStory(body: CreateVideoStoryBody): Promise<CreatedVideoStory> {
  return call(api.POST("/dams/api/v1/video-edit/stories", { body }), { silent: true });
}

/** Saves a processed draft as a new video story. */
export function commitVideo(ref: StoryRef): Promise<unknown> {
  const body = { libraryId: ref.libraryId, storyIds: [ref.storyId] };
  return call(api.POST("/dams/api/v1/workflow-story-create/video/commit", { body }), { silent: true });
}

/** Saves a processed draft as the next version of `base` (its `properties.lastVersion` names the previous one). */
export function saveVideoVersion(base: StoryRef, draft: StoryRef): Promise<unknown> {
  const body = {
    libraryId: base.libraryId,
    storyId: base.storyId,
    fromLibraryId: draft.libraryId,
    fromStoryId: draft.storyId,
  };
  return call(api.POST("/dams/api/v1/workflow-story-create/newversion/video", { body }), { silent: true });
}

/** The EDL a story's (current) version was rendered from; null when the video editor did not make it. */
export async function fetchStoryEdl(ref: StoryRef, options: CallOptions = {}): Promise<VideoEdl | null> {
  const path = { libraryId: ref.libraryId, storyId: ref.storyId };
  try {
    return await call(api.GET("/dams/api/v1/video-edit/stories/{libraryId}/{storyId}/edl", { params: { path } }), {
      silent: true,
      ...options,
    });
  } catch (error) {
    if ((error as { status?: number }).status === 404) return null;
    throw error;
  }
}

export type VideoProject =
  paths["/dams/api/v1/video-edit/projects/{id}"]["get"]["responses"][200]["content"]["application/json"]["data"];

/** The caller's project a story's (current) version was rendered from: "edit again" goes on with it. Null when none. */
export function fetchStoryProject(ref: StoryRef): Promise<VideoProjectSummary | null> {
  const path = { libraryId: ref.libraryId, storyId: ref.storyId };
  return call(api.GET("/dams/api/v1/video-edit/stories/{libraryId}/{storyId}/project", { params: { path } }), {
    silent: true,
  });
}
export type VideoProjectSummary =
  paths["/dams/api/v1/video-edit/projects"]["get"]["responses"][200]["content"]["application/json"]["data"]["content"][number];
export type VideoEdlDraft = Schemas["VideoEdlDraft"];

/** The caller's projects, the last changed first. */
export async function listProjects(size = 20): Promise<VideoProjectSummary[]> {
  const query = { page: 0, size };
  return (await call(api.GET("/dams/api/v1/video-edit/projects", { params: { query } }), { silent: true })).content;
}

/** A new project (the first autosave of an edit). */
export function createProject(kind: "video" | "slideshow", edl: VideoEdlDraft): Promise<VideoProject> {
  return call(api.POST("/dams/api/v1/video-edit/projects", { body: { kind, edl } }), { silent: true });
}

export function fetchProject(id: string): Promise<VideoProject> {
  return call(api.GET("/dams/api/v1/video-edit/projects/{id}", { params: { path: { id } } }), { silent: true });
}

/** Autosave: the project's EDL, based on `revision` (409 when it was saved elsewhere since). */
export function saveProject(id: string, edl: VideoEdlDraft, revision: number): Promise<VideoProject> {
  return call(api.PUT("/dams/api/v1/video-edit/projects/{id}", { params: { path: { id } }, body: { edl, revision } }), {
    silent: true,
  });
}
