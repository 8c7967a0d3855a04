/**
 * One story: its detail, versions, relations, history, processing and media
 * URLs, and the viewer's actions on it (publish, share, the image editor's
 * source), with its domain hooks. The query keys are `storyKeys` (stories.ts).
 */
import { useQuery } from "@tanstack/react-query";
import { api, call, callFile } from "./client";
import type { CallOptions } from "./http";
import type { PageOf } from "./paging";
import type { components, paths } from "./schema";
import { fetchFavorites, type Story, type StoryFile, type StoryRef, storyKeys } from "./stories";

type Schemas = components["schemas"];
export type StoryVersion = Schemas["StoryVersion"];
export type StoryRelation = Schemas["StoryRelation"];
export type StoryAction = Schemas["StoryAction"];
export type StoryProcessing = Schemas["StoryProcessing"];
export type StoryJob = StoryProcessing["jobs"][number];
export type ShareToken = Schemas["ShareToken"];

const byRef = (ref: StoryRef) => ({ params: { path: { libraryId: ref.libraryId, storyId: ref.storyId } } });

export function fetchStory(ref: StoryRef, options: CallOptions = {}): Promise<Story> {
  return call(api.GET("/dams/api/v1/stories/{libraryId}/{storyId}", byRef(ref)), options);
}

export function fetchVersions(ref: StoryRef): Promise<StoryVersion[]> {
  return call(api.GET("/dams/api/v1/stories/{libraryId}/{storyId}/versions", byRef(ref)));
}

export function fetchRelations(ref: StoryRef): Promise<StoryRelation[]> {
  return call(api.GET("/dams/api/v1/stories/relation/{libraryId}/{storyId}", byRef(ref)));
}

/** The kinds of relation the server knows (relations.schema.ts). */
export const RELATION_TYPES = ["related", "derived", "same-event"] as const;
export type RelationType = (typeof RELATION_TYPES)[number];

export function addRelation(
  ref: StoryRef,
  body: { relatedLibraryId: string; relatedStoryId: string; type: RelationType },
): Promise<StoryRelation[]> {
  return call(api.POST("/dams/api/v1/stories/relation/{libraryId}/{storyId}", { ...byRef(ref), body }));
}

export function removeRelation(ref: StoryRef, relationId: string): Promise<null> {
  return call(
    api.DELETE("/dams/api/v1/stories/relation/{libraryId}/{storyId}/{relationId}", {
      params: { path: { libraryId: ref.libraryId, storyId: ref.storyId, relationId } },
    }),
  );
}

export function fetchStoryActions(ref: StoryRef, page = 0, size = 50): Promise<PageOf<StoryAction>> {
  return call(api.GET("/dams/api/v1/story-actions", { params: { query: { ...ref, page, size } } }));
}

/** The story's processing state and its newest jobs with progress (any reader of the story). */
export function fetchProcessing(ref: StoryRef): Promise<StoryProcessing> {
  return call(api.GET("/dams/api/v1/stories/{libraryId}/{storyId}/processing", byRef(ref)));
}

/** A fresh signed URL of one file, for a player whose URL has expired. */
export function fetchMediaUrl(
  ref: StoryRef,
  target: { rendition: string; versionNo: number },
): Promise<{ url: string; expiresAt: string }> {
  const path = { libraryId: ref.libraryId, storyId: ref.storyId };
  return call(api.GET("/dams/api/v1/stories/{libraryId}/{storyId}/media-url", { params: { path, query: target } }));
}

/** The processing (transcode) task of a story's current version, with the job's progress (0-100). */
export type TranscodeTask =
  paths["/dams/api/v1/video-trans-tasks"]["get"]["responses"][200]["content"]["application/json"]["data"];

export function fetchTranscodeTask(ref: StoryRef, type: string): Promise<TranscodeTask> {
  const query = { videoUrl: `${ref.libraryId}/${ref.storyId}`, type };
  return call(api.GET("/dams/api/v1/video-trans-tasks", { params: { query } }), { silent: true });
}

/** The original file of a story's current version (the image editor's source). */
export async function fetchStoryOriginal(ref: StoryRef): Promise<Blob> {
  return (
    await callFile(api.GET("/dams/api/v1/stories/download/{libraryId}/{storyId}", { ...byRef(ref), parseAs: "blob" }))
  ).blob;
}

/** The sprite index of a video's thumbnail strip (`strip-index` rendition). */
export interface StripIndex {
  sprite: string;
  frameWidth: number;
  frameHeight: number;
  durationSeconds: number;
  frames: { index: number; time: number; x: number; y: number }[];
}

export function publishStory(
  ref: StoryRef,
  body: { channel?: string; note?: string; channels?: string[]; publishAt?: string; embargoUntil?: string } = {},
): Promise<unknown> {
  return call(api.POST("/dams/api/v1/workflow-story-publish/{libraryId}/{storyId}", { ...byRef(ref), body }));
}

/** Withdraws a published story: a kill to every channel it went to (docs/publishing.md); answers the kills. */
export function withdrawStory(ref: StoryRef): Promise<unknown[]> {
  return call(api.POST("/dams/api/v1/workflow-story-withdraw/{libraryId}/{storyId}", { ...byRef(ref), body: {} }));
}

export function shareStory(ref: StoryRef, expiresInDays = 7): Promise<ShareToken> {
  const path = { libraryId: ref.libraryId, storyId: ref.storyId };
  return call(
    api.GET("/dams/api/v1/workflow-story-share/story/{libraryId}/{storyId}", {
      params: { path, query: { expiresInDays } },
    }),
  );
}

export function fileOf(story: Pick<Story, "files">, role: string): StoryFile | undefined {
  return story.files.find((file) => file.role === role);
}

// ---------------------------------------------------------------- hooks

/** How often a poll asks again, by what it shows: false stops it. */
type Poll<T> = (data: T | undefined) => number | false;

const NO_STORY: StoryRef = { libraryId: "", storyId: "" };

/**
 * One story (`null`: none, nothing asked). `poll` asks again while the story
 * is being processed; `call` says which failures the page explains itself.
 */
export function useStory(
  ref: StoryRef | null,
  options: { call?: CallOptions; retry?: boolean; poll?: Poll<Story> } = {},
) {
  const { call, retry, poll } = options;
  return useQuery({
    queryKey: storyKeys.detail(ref ?? NO_STORY),
    queryFn: () => fetchStory(ref as StoryRef, call),
    enabled: ref !== null,
    ...(retry === undefined ? {} : { retry }),
    refetchInterval: poll ? (query) => poll(query.state.data) : undefined,
  });
}

/** The versions of a story, newest first; asked again when the story gets a new one. */
export const useStoryVersions = (story: Story) =>
  useQuery({
    queryKey: storyKeys.versions(story, story.versionNo),
    queryFn: () => fetchVersions(story),
  });

/** The story's relations, from both ends. */
export const useStoryRelations = (ref: StoryRef) =>
  useQuery({ queryKey: storyKeys.relations(ref), queryFn: () => fetchRelations(ref) });

/** The story's action history, newest first: the first `size` actions. */
export const useStoryActions = (ref: StoryRef, size = 50) =>
  useQuery({ queryKey: storyKeys.actions(ref, size), queryFn: () => fetchStoryActions(ref, 0, size) });

/** Whether the story is one of the user's favourites (undefined while asking). */
export function useIsFavorite(ref: StoryRef) {
  const query = useQuery({
    queryKey: storyKeys.favorite(ref),
    queryFn: () => fetchFavorites({ libraryId: ref.libraryId, storyId: ref.storyId, page: 0, size: 1 }),
  });
  return { ...query, isFavorite: (query.data?.totalElements ?? 0) > 0 };
}

/** The story's processing and its newest jobs, asked only while `enabled`. */
export const useStoryProcessing = (ref: StoryRef, enabled: boolean, poll: Poll<StoryProcessing>) =>
  useQuery({
    queryKey: storyKeys.processing(ref),
    queryFn: () => fetchProcessing(ref),
    enabled,
    refetchInterval: (query) => poll(query.state.data),
  });

/** The transcode task of a video or audio story's current version, asked every `intervalMs`. */
export const useTranscodeTask = (story: StoryRef & { type: string }, intervalMs: number) =>
  useQuery<TranscodeTask>({
    queryKey: storyKeys.transcode(story),
    queryFn: () => fetchTranscodeTask(story, story.type),
    refetchInterval: intervalMs,
  });
