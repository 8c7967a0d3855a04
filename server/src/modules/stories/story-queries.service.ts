import type { StoryType } from "../../db/schema.js";
import { NotFound } from "../../http/errors.js";
import type { LibraryUser } from "../access/library-access.js";
import type { LibrariesService } from "../libraries/libraries.service.js";
import type { StoryListQuery } from "../search/search.schema.js";
import type { SearchService } from "../search/search.service.js";
import type { Facets } from "../search/search-window.js";
import { groupPairs, nearPairs } from "./duplicates.js";
import type { StoriesRepository } from "./stories.repository.js";
import type { StoryAccess } from "./story-access.js";
import type { Story, StoryFile } from "./story-types.js";
import { type SignMediaUrl, type StoryView, toStoryView, toVersionView, type VersionView } from "./story-view.js";

export interface DuplicateGroup {
  kind: "exact" | "near";
  /** sha256 for exact groups. */
  sha256: string | null;
  /** Largest Hamming distance between a story and its nearest neighbour in the group (near groups). */
  distance: number | null;
  stories: StoryView[];
}

/** Library-wide scans return at most this many groups of each kind. */
const MAX_GROUPS = 200;

/** Reads: lists, one story, versions, duplicates, counts. */
export class StoryQueries {
  constructor(
    private readonly stories: StoriesRepository,
    private readonly access: StoryAccess,
    private readonly libraries: LibrariesService,
    private readonly signMediaUrl: SignMediaUrl,
    private readonly search: SearchService,
    /** The properties a user may not see (field-level access); absent: none is hidden. */
    private readonly hiddenFor?: (user: LibraryUser) => Promise<ReadonlySet<string>>,
  ) {}

  /** What a search of this user leaves out: the values of the properties the user may not see. */
  async #hidden(user: LibraryUser): Promise<string[]> {
    return this.hiddenFor ? [...(await this.hiddenFor(user))] : [];
  }

  async views(stories: Story[]): Promise<StoryView[]> {
    const files = await this.stories.files(stories.map((story) => story.id));
    const members = await this.stories.membersOf(
      stories.filter((story) => story.type === "composite").map((story) => story.id),
    );
    // Each story's own files: a page of 50 stories would otherwise look through every file of the page 50 times.
    const filesOf = new Map<string, StoryFile[]>();
    for (const file of files) {
      const own = filesOf.get(file.storyId);
      if (own) own.push(file);
      else filesOf.set(file.storyId, [file]);
    }
    return stories.map((story) =>
      toStoryView(story, filesOf.get(story.id) ?? [], this.signMediaUrl, members.get(story.id) ?? []),
    );
  }

  /** These stories (those that exist), in no particular order. */
  async findMany(ids: string[]): Promise<Story[]> {
    return this.stories.findMany(ids);
  }

  /** The story, when it is in this library (StoryAccess.find): for routes whose config checked the library. */
  async require(libraryId: string, storyId: string): Promise<Story> {
    return this.access.find(libraryId, storyId);
  }

  async get(libraryId: string, storyId: string): Promise<StoryView> {
    const [view] = await this.views([await this.require(libraryId, storyId)]);
    return view!;
  }

  /** Libraries to search: the one asked for (404 when unreadable) or every readable one. */
  async #libraryIds(user: LibraryUser, libraryId: string | undefined): Promise<string[]> {
    if (libraryId) {
      await this.libraries.require(user, libraryId, "read");
      return [libraryId];
    }
    return this.libraries.readableIds(user);
  }

  /** A page of stories; `unfiled` keeps those filed in no folder (WebDAV's library top). */
  async list(
    user: LibraryUser,
    query: StoryListQuery & { unfiled?: boolean },
    createdBy?: string,
  ): Promise<{ content: StoryView[]; total: number; capped: boolean; estimated: boolean; facets?: Facets }> {
    const { page, size, sort, order, facets: withFacets, libraryId, ...filters } = query;
    const libraryIds = await this.#libraryIds(user, libraryId);
    const { rows, total, capped, estimated, facets } = await this.search.search(
      { ...filters, libraryIds, viewerId: user.id, createdBy, hiddenProperties: await this.#hidden(user) },
      { page, size, sort, order },
      Boolean(withFacets),
    );
    const content = await this.views(rows.map((row) => this.stories.toStory(row)));
    return facets ? { content, total, capped, estimated, facets } : { content, total, capped, estimated };
  }

  /**
   * The ids of every story a list query matches, in its order (a batch's
   * snapshot of "all stories matching a search"): none when more than `max`
   * match; `capped` when a full-text search matched more than it looks at.
   */
  async matchingIds(
    user: LibraryUser,
    query: Omit<StoryListQuery, "page" | "size" | "facets">,
    max: number,
  ): Promise<{ ids: string[]; total: number; capped: boolean }> {
    const { sort, order, libraryId, ...filters } = query;
    const libraryIds = await this.#libraryIds(user, libraryId);
    const hiddenProperties = await this.#hidden(user);
    const ids: string[] = [];
    const size = 1000;
    for (let page = 0; ; page++) {
      const found = await this.search.search(
        { ...filters, libraryIds, viewerId: user.id, hiddenProperties },
        { page, size, sort, order },
        false,
      );
      // An estimated total (a list without full text above LIST_COUNT_CAP) is above the cap, and so above `max`.
      if (found.total > max || found.capped) return { ids: [], total: found.total, capped: found.capped };
      ids.push(...found.rows.map((row) => row.id));
      if (found.rows.length < size || ids.length >= found.total) return { ids, total: found.total, capped: false };
    }
  }

  async versions(libraryId: string, storyId: string): Promise<VersionView[]> {
    const story = await this.require(libraryId, storyId);
    const files = await this.stories.files([story.id]);
    return (await this.stories.versions(story.id)).map((version) =>
      toVersionView(story, version, files, this.signMediaUrl),
    );
  }

  async version(libraryId: string, storyId: string, versionNo: number): Promise<VersionView> {
    const found = (await this.versions(libraryId, storyId)).find((version) => version.versionNo === versionNo);
    if (!found) throw new NotFound(`versionNo: story ${storyId} has no version ${versionNo}`);
    return found;
  }

  async usedInfo(user: LibraryUser): Promise<Record<StoryType, number>> {
    return this.stories.countByType(await this.libraries.readableIds(user));
  }

  /**
   * Exact duplicates (same SHA-256) and near duplicates of photos (perceptual
   * hashes at most `distance` bits apart) in a library: of one story when
   * `storyId` is given, of a file about to be uploaded when `sha256` is, else
   * every group in the library.
   */
  async repeat(
    user: LibraryUser,
    query: { libraryId: string; storyId?: string; sha256?: string; distance: number },
  ): Promise<DuplicateGroup[]> {
    await this.libraries.require(user, query.libraryId, "read");
    const groups: DuplicateGroup[] = [];
    if (query.sha256 && !query.storyId) {
      const stories = await this.stories.withSha256([query.libraryId], query.sha256);
      if (stories.length > 0)
        groups.push({ kind: "exact", sha256: query.sha256, distance: null, stories: await this.views(stories) });
      return groups;
    }
    const target = query.storyId ? await this.require(query.libraryId, query.storyId) : undefined;
    const hashes = target
      ? target.contentSha256
        ? [target.contentSha256]
        : []
      : await this.stories.repeatedSha256(query.libraryId, MAX_GROUPS);
    for (const sha256 of hashes) {
      const stories = await this.stories.withSha256([query.libraryId], sha256);
      if (stories.length > 1)
        groups.push({ kind: "exact", sha256, distance: null, stories: await this.views(stories) });
    }
    if (target && (target.type !== "photo" || !target.perceptualHash)) return groups;
    const photos = await this.stories.photoHashes(query.libraryId);
    let pairs = nearPairs(photos, query.distance);
    if (target) pairs = pairs.filter((pair) => pair.a === target.id || pair.b === target.id);
    for (const ids of groupPairs(pairs).slice(0, MAX_GROUPS)) {
      const stories = await this.stories.findMany(ids);
      stories.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
      const distance = Math.max(
        ...ids.map((id) =>
          Math.min(...pairs.filter((pair) => pair.a === id || pair.b === id).map((pair) => pair.distance)),
        ),
      );
      groups.push({ kind: "near", sha256: null, distance, stories: await this.views(stories) });
    }
    return groups;
  }
}
