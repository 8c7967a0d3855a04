/**
 * Stories: their types and query keys, and the calls of the story lists and
 * of a selection's actions. One story's detail is in story-detail.ts, so a
 * list page does not load the viewer's calls.
 */
import type { JsonBody } from "./bodies";
import { type ApiFile, api, call, callFile } from "./client";
import { saveBlob } from "./files";
import type { PageOf } from "./paging";
import type { components, paths } from "./schema";

type Schemas = components["schemas"];
export type Story = Schemas["Story"];
export type StoryType = Story["type"];
export type StoryFile = Story["files"][number];
export type Favorite = Schemas["Favorite"];
/** The type a story is uploaded as (a composite is made, not uploaded). */
export type UploadType = Exclude<StoryType, "composite">;

export const STORY_TYPES: readonly StoryType[] = ["photo", "video", "audio", "composite"];

export type Facets = Partial<Schemas["SearchFacets"]>;
export type FacetKey = keyof Schemas["SearchFacets"];
export type FacetValue = Schemas["SearchFacets"][FacetKey][number];
export const FACET_KEYS: readonly FacetKey[] = ["type", "library", "month", "author", "source", "tag"];

/** The query of `GET /stories`, as the server's schema declares it; lists are sent comma-separated. */
export type StoryQuery = NonNullable<paths["/dams/api/v1/stories"]["get"]["parameters"]["query"]>;
/** `GET /stories`: the paging shape, with facets beside it once the search index answers them. */
export type StorySearchResult =
  paths["/dams/api/v1/stories"]["get"]["responses"][200]["content"]["application/json"]["data"];
type MyStoriesQuery = NonNullable<paths["/dams/api/v1/stories/mystories/{libraryId}"]["get"]["parameters"]["query"]>;

export interface StoryRef {
  libraryId: string;
  storyId: string;
}

/**
 * The query keys of stories, one family: lists under `list`, and everything
 * of one story (itself, versions, relations, history, favourite state,
 * processing) under its `detail`, so a change to a story reaches all of it.
 */
export const storyKeys = {
  all: ["stories"] as const,
  lists: () => [...storyKeys.all, "list"] as const,
  /** One list of stories: `scope` names the screen's list (search, library, mine…), `query` what it asks. */
  list: (scope: string, query: unknown) => [...storyKeys.lists(), scope, query] as const,
  details: () => [...storyKeys.all, "detail"] as const,
  detail: (ref: StoryRef) => [...storyKeys.details(), ref.libraryId, ref.storyId] as const,
  versions: (ref: StoryRef, versionNo: number) => [...storyKeys.detail(ref), "versions", versionNo] as const,
  relations: (ref: StoryRef) => [...storyKeys.detail(ref), "relations"] as const,
  actions: (ref: StoryRef, size: number) => [...storyKeys.detail(ref), "actions", size] as const,
  favorite: (ref: StoryRef) => [...storyKeys.detail(ref), "favorite"] as const,
  processing: (ref: StoryRef) => [...storyKeys.detail(ref), "processing"] as const,
  transcode: (ref: StoryRef) => [...storyKeys.detail(ref), "transcode"] as const,
};

export function searchStories(query: StoryQuery): Promise<StorySearchResult> {
  return call(api.GET("/dams/api/v1/stories", { params: { query } }));
}

export function fetchMyStories(
  libraryId: string | undefined,
  query: MyStoriesQuery,
): Promise<PageOf<Story> & { totalEstimated?: boolean }> {
  return call(
    api.GET("/dams/api/v1/stories/mystories/{libraryId}", {
      params: { path: { libraryId: libraryId ?? "all" }, query },
    }),
  );
}

export function addFavorite(ref: StoryRef & { type?: string }): Promise<unknown> {
  return call(api.POST("/dams/api/v1/workflow-story-favorite", { body: ref }));
}

export function removeFavorite(ref: StoryRef): Promise<unknown> {
  const query = { libraryId: ref.libraryId, storyId: ref.storyId };
  return call(api.DELETE("/dams/api/v1/workflow-story-favorite", { params: { query } }));
}

export function fetchFavorites(query: {
  libraryId?: string;
  storyId?: string;
  type?: string;
  page?: number;
  size?: number;
}): Promise<PageOf<Favorite>> {
  return call(api.GET("/dams/api/v1/workflow-story-favorite", { params: { query } }));
}

export function deleteStory(ref: StoryRef): Promise<unknown> {
  return call(
    api.DELETE("/dams/api/v1/workflow-story-delete/{libraryId}/{storyId}", {
      params: { path: { libraryId: ref.libraryId, storyId: ref.storyId } },
    }),
  );
}

/** The metadata a story's edit route changes (properties merge into the story's). */
export type StoryEdit = JsonBody<"/dams/api/v1/workflow-story-edit/photo/{storyId}", "put">;

/** `PUT /workflow-story-edit/{type}/{id}?libraryId=`: the edit route of the story's type. */
export function editStory(story: StoryRef & { type: string }, body: StoryEdit): Promise<unknown> {
  const path = `/dams/api/v1/workflow-story-edit/${story.type as StoryType}/{storyId}` as const;
  return call(
    api.PUT(path, { params: { path: { storyId: story.storyId }, query: { libraryId: story.libraryId } }, body }),
  );
}

/** What saving the edit-information form came to: saved, or refused because someone changed the story since. */
export type InformationSave = { kind: "saved"; story: Story } | { kind: "stale"; current: Story; message: string };

/**
 * Saves a story's information based on `revision` (sent as If-Match): a 409
 * `stale_revision` is an answer, not a failure, carrying the story as it is
 * now. Other refusals are reported and thrown as every call's.
 */
export async function saveStoryInformation(
  story: StoryRef & { type: string },
  body: StoryEdit,
  revision: number,
): Promise<InformationSave> {
  const path = `/dams/api/v1/workflow-story-edit/${story.type as StoryType}/{storyId}` as const;
  const pending = api.PUT(path, {
    params: { path: { storyId: story.storyId }, query: { libraryId: story.libraryId } },
    headers: { "If-Match": `"${revision}"` },
    body,
  });
  const { response, error } = await pending;
  if (response.status === 409) {
    const stale = error as { error?: string; msg?: string; data?: Story } | undefined;
    if (stale?.error === "stale_revision" && stale.data) {
      return { kind: "stale", current: stale.data, message: stale.msg ?? "" };
    }
  }
  return { kind: "saved", story: (await call(pending)) as Story };
}

/** Moves a story to another folder of its library. */
export const moveStory = (story: StoryRef & { type: string }, folderId: string | null) =>
  editStory(story, { folderId });

/** Marks a half product finished: it stops being a half product. */
export const finishHalfProduct = (story: StoryRef & { type: string }) => editStory(story, { halfProduct: false });

/** The most ids one zip may hold (docs/stories.md). */
export const ZIP_MAX_STORIES = 100;

/**
 * The attachment route: one story by its path, or up to 100 ids of one library
 * as a zip, named in the query (a path parameter holds 13 at most).
 */
export function downloadStories(
  libraryId: string,
  storyIds: readonly string[],
  options: { rendition?: string; versionNo?: number } = {},
): Promise<ApiFile> {
  if (storyIds.length > 1) {
    return callFile(
      api.GET("/dams/api/v1/workflow-story-download/{libraryId}", {
        params: { path: { libraryId }, query: { rendition: options.rendition, storyIds: storyIds.join(",") } },
        parseAs: "blob",
      }),
    );
  }
  return callFile(
    api.GET("/dams/api/v1/workflow-story-download/{libraryId}/{storyIds}", {
      params: { path: { libraryId, storyIds: storyIds.join(",") }, query: options },
      parseAs: "blob",
    }),
  );
}

/** Downloads stories (one, or a zip) and hands the file to the browser, named as the server names it. */
export async function saveStories(
  libraryId: string,
  storyIds: readonly string[],
  fallbackName: string,
  options: { rendition?: string; versionNo?: number } = {},
): Promise<void> {
  const file = await downloadStories(libraryId, storyIds, options);
  saveBlob(file.blob, file.name ?? fallbackName);
}

/** A half product made from metadata alone (issue 15): a draft others in its library see and continue. */
export function createHalfProduct(
  type: UploadType,
  body: { libraryId: string; title: string; caption?: string },
): Promise<Story> {
  const path = `/dams/api/v1/workflow-story-create/${type}` as const;
  return call(api.POST(path, { body: { ...body, halfProduct: true } })) as Promise<Story>;
}

/** Marks a story as a half product (work in progress), or no longer one. */
export const markHalfProduct = (story: StoryRef & { type: string }, halfProduct: boolean) =>
  editStory(story, { halfProduct });
