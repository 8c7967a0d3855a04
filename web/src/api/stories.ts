import { API_BASE, type CallOptions, reportApiError, sendRequest, unwrapResponse } from "./http";
import type { components } from "./schema";

type Schemas = components["schemas"];
export type Story = Schemas["Story"];
export type StoryType = Story["type"];
export type StoryFile = Story["files"][number];
export type StoryVersion = Schemas["StoryVersion"];
export type StoryRelation = Schemas["StoryRelation"];
export type StoryAction = Schemas["StoryAction"];
export type Favorite = Schemas["Favorite"];
export type Library = Schemas["Library"];
export type FolderNode = Schemas["FolderNode"];
export type ShareToken = Schemas["ShareToken"];

export const STORY_TYPES: readonly StoryType[] = ["photo", "video", "audio", "composite"];

/** The paging shape of the API (spec section 3). */
export interface PageOf<T> {
  content: T[];
  totalElements: number;
  size: number;
  number: number;
}

export interface FacetValue {
  value: string;
  count: number;
}
export const FACET_KEYS = ["type", "library", "month", "author", "source", "tag"] as const;
export type FacetKey = (typeof FACET_KEYS)[number];
export type Facets = Partial<Record<FacetKey, FacetValue[]>>;

/** `GET /stories`: the paging shape, with facets beside it once the search index answers them. */
export interface StorySearchResult extends PageOf<Story> {
  facets?: Facets;
  /** More stories match the full text than the search looks at: totalElements is that number. */
  totalCapped?: boolean;
}

/** The query of `GET /stories` (and of `/stories/mystories/{x}`); lists are sent comma-separated. */
export interface StoryQuery {
  fulltext?: string;
  libraryId?: string;
  folderId?: string;
  types?: readonly string[];
  status?: readonly string[];
  keyword?: string;
  halfProduct?: boolean;
  author?: readonly string[];
  source?: readonly string[];
  tag?: readonly string[];
  month?: readonly string[];
  sort?: string;
  page?: number;
  size?: number;
  /** Counts beside the page; the server's default is on with `fulltext`. */
  facets?: boolean;
}

/** The query string of a story query: empty values are left out, lists joined by commas. */
export function storyQueryString(query: StoryQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === "") continue;
    if (Array.isArray(value)) {
      if (value.length > 0) params.set(key, value.join(","));
    } else params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

async function request<T>(method: string, path: string, body?: unknown, options: CallOptions = {}): Promise<T> {
  try {
    const init: RequestInit = { method };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers = { "Content-Type": "application/json" };
    }
    const response = await sendRequest(new Request(new URL(API_BASE + path, window.location.origin), init));
    return await unwrapResponse<T>(response);
  } catch (error) {
    reportApiError(error, options);
    throw error;
  }
}

const V1 = "/api/v1";
const enc = encodeURIComponent;

export function searchStories(query: StoryQuery): Promise<StorySearchResult> {
  return request("GET", `${V1}/stories${storyQueryString(query)}`);
}

export function fetchMyStories(libraryId: string | undefined, query: StoryQuery): Promise<PageOf<Story>> {
  return request("GET", `${V1}/stories/mystories/${enc(libraryId ?? "all")}${storyQueryString(query)}`);
}

export function fetchStory(libraryId: string, storyId: string, options: CallOptions = {}): Promise<Story> {
  return request("GET", `${V1}/stories/${enc(libraryId)}/${enc(storyId)}`, undefined, options);
}

export function fetchVersions(libraryId: string, storyId: string): Promise<StoryVersion[]> {
  return request("GET", `${V1}/stories/${enc(libraryId)}/${enc(storyId)}/versions`);
}

export function fetchRelations(libraryId: string, storyId: string): Promise<StoryRelation[]> {
  return request("GET", `${V1}/stories/relation/${enc(libraryId)}/${enc(storyId)}`);
}

export function fetchStoryActions(
  libraryId: string,
  storyId: string,
  page = 0,
  size = 50,
): Promise<PageOf<StoryAction>> {
  return request(
    "GET",
    `${V1}/story-actions${storyQueryString({ page, size })}&libraryId=${enc(libraryId)}&storyId=${enc(storyId)}`,
  );
}

export function fetchLibraries(): Promise<Library[]> {
  return request("GET", `${V1}/libraries`);
}

export function fetchFolders(libraryId: string): Promise<FolderNode[]> {
  return request("GET", `${V1}/libraries/${enc(libraryId)}/folders`);
}

export interface StoryRef {
  libraryId: string;
  storyId: string;
}

export function addFavorite(ref: StoryRef & { type?: string }): Promise<unknown> {
  return request("POST", `${V1}/workflow-story-favorite`, ref);
}

export function removeFavorite(ref: StoryRef): Promise<unknown> {
  return request("DELETE", `${V1}/workflow-story-favorite?libraryId=${enc(ref.libraryId)}&storyId=${enc(ref.storyId)}`);
}

export function fetchFavorites(query: {
  libraryId?: string;
  storyId?: string;
  type?: string;
  page?: number;
  size?: number;
}): Promise<PageOf<Favorite>> {
  return request("GET", `${V1}/workflow-story-favorite${storyQueryString(query)}`);
}

export function deleteStory(ref: StoryRef): Promise<unknown> {
  return request("DELETE", `${V1}/workflow-story-delete/${enc(ref.libraryId)}/${enc(ref.storyId)}`);
}

export function publishStory(ref: StoryRef, body: { channel?: string; note?: string } = {}): Promise<unknown> {
  return request("POST", `${V1}/workflow-story-publish/${enc(ref.libraryId)}/${enc(ref.storyId)}`, body);
}

export function shareStory(ref: StoryRef, expiresInDays = 7): Promise<ShareToken> {
  return request(
    "GET",
    `${V1}/workflow-story-share/story/${enc(ref.libraryId)}/${enc(ref.storyId)}?expiresInDays=${expiresInDays}`,
  );
}

/** Moves a story to another folder of its library (the edit route of its type). */
export function moveStory(
  story: Pick<Story, "libraryId" | "storyId" | "type">,
  folderId: string | null,
): Promise<unknown> {
  return request(
    "PUT",
    `${V1}/workflow-story-edit/${story.type}/${enc(story.storyId)}?libraryId=${enc(story.libraryId)}`,
    { folderId },
  );
}

/** Drafts → committed (the half products' "commit"). */
/**
 * Commits drafts; `metadata.properties` go to every story, `properties` (by
 * story id) to one story each, over the batch's. The server checks them
 * against /properties/list.
 */
export function commitStories(
  type: "photo" | "video" | "audio",
  libraryId: string,
  storyIds: string[],
  extra: {
    metadata?: { properties?: Record<string, unknown> };
    properties?: Record<string, Record<string, unknown>>;
  } = {},
): Promise<unknown> {
  return request("POST", `${V1}/workflow-story-create/${type}/commit`, { libraryId, storyIds, ...extra });
}

/** The processing (transcode) task of a story's current version, with the job's progress (0-100). */
export interface TranscodeTask {
  state: "none" | "queued" | "running" | "done" | "failed" | "cancelled";
  progress: number;
  error: string | null;
}

export function fetchTranscodeTask(libraryId: string, storyId: string, type: string): Promise<TranscodeTask> {
  return request(
    "GET",
    `${V1}/video-trans-tasks?videoUrl=${enc(`${libraryId}/${storyId}`)}&type=${enc(type)}`,
    undefined,
    { silent: true },
  );
}

/** Marks a half product finished: it stops being a half product. */
export function finishHalfProduct(story: Pick<Story, "libraryId" | "storyId" | "type">): Promise<unknown> {
  return request(
    "PUT",
    `${V1}/workflow-story-edit/${story.type}/${enc(story.storyId)}?libraryId=${enc(story.libraryId)}`,
    { halfProduct: false },
  );
}

/** The attachment route: one story, or up to 100 ids of one library as a zip. */
export function downloadUrl(
  libraryId: string,
  storyIds: readonly string[],
  options: { rendition?: string; versionNo?: number } = {},
): string {
  const query = storyQueryString({
    ...(options.rendition ? { rendition: options.rendition } : {}),
    ...(options.versionNo ? { versionNo: options.versionNo } : {}),
  } as StoryQuery);
  return `${API_BASE}${V1}/workflow-story-download/${enc(libraryId)}/${storyIds.map(enc).join(",")}${query}`;
}

/** The most ids one zip may hold (docs/stories.md). */
export const ZIP_MAX_STORIES = 100;

/** Fetches a URL of the API with the bearer token (files cannot carry it in an <img> or <a>). */
export async function fetchBlob(url: string, options: CallOptions = {}): Promise<Blob> {
  try {
    const response = await sendRequest(new Request(new URL(url, window.location.origin)));
    if (!response.ok) await unwrapResponse(response);
    return await response.blob();
  } catch (error) {
    reportApiError(error, options);
    throw error;
  }
}

/** The file name of an attachment response (RFC 6266 filename*). */
export function attachmentName(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1]);
    } catch {
      /* fall through to the plain name */
    }
  }
  const plain = /filename="?([^";]+)"?/i.exec(disposition);
  return plain?.[1] ?? fallback;
}

/** Downloads an attachment URL of the API and hands it to the browser as a file. */
export async function saveAttachment(url: string, fallbackName: string): Promise<void> {
  try {
    const response = await sendRequest(new Request(new URL(url, window.location.origin)));
    if (!response.ok) await unwrapResponse(response);
    const blob = await response.blob();
    const objectUrl = URL.createObjectURL(blob);
    const link = document.createElement("a");
    link.href = objectUrl;
    link.download = attachmentName(response.headers.get("content-disposition"), fallbackName);
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(objectUrl), 60_000);
  } catch (error) {
    reportApiError(error);
    throw error;
  }
}

/** The sprite index of a video's thumbnail strip (`strip-index` rendition). */
export interface StripIndex {
  sprite: string;
  frameWidth: number;
  frameHeight: number;
  durationSeconds: number;
  frames: { index: number; time: number; x: number; y: number }[];
}

export function fileOf(story: Pick<Story, "files">, role: string): StoryFile | undefined {
  return story.files.find((file) => file.role === role);
}
