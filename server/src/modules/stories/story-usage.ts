import type { Kysely } from "kysely";
import type { Db } from "../../db/database.js";
import type { Database } from "../../db/schema.js";
import type { CatalogueUsage, MergedBy, UsageKind } from "../catalogue/shared/catalogue-usage.js";
import type { FolderUsage } from "../folders/folders.service.js";
import type { LibraryUsage } from "../libraries/library-settings.service.js";
import type { StoryChangeListener } from "../search/search-index.js";
import { type CatalogueColumn, SINGLE_VALUE_COLUMNS, StoriesRepository } from "./stories.repository.js";
import { storyAction } from "./story-action.js";
import { StoryActionsRepository } from "./story-actions.repository.js";

/** The story column each catalogue entry kind fills (as an edit's story action names its fields too). */
const COLUMNS: Record<UsageKind, CatalogueColumn> = {
  theme: "theme",
  source: "source",
  category: "category",
  tag: "tags",
  keyword: "keywords",
  author: "authors",
};
const ACTIONS_PER_STATEMENT = 500;

/**
 * What stories use of other modules' entries, for their delete refusals and
 * the catalogue's merge: catalogue entries (stories keep the entry's name or,
 * for single values, possibly its id, compared case-insensitively as the
 * catalogue's uniqueness is) and folders. Built before the stories services,
 * because the catalogue and the folders are.
 */
export class StoryUsage implements CatalogueUsage, FolderUsage, LibraryUsage {
  readonly #stories: StoriesRepository;

  constructor(
    private readonly db: Db,
    /** Told of the stories a merge rewrites, as every story write tells it (the search index). */
    changes: StoryChangeListener,
  ) {
    this.#stories = new StoriesRepository(db.kysely, db.adapter, changes);
  }

  async count(kind: UsageKind, entry: { id: string; name: string }): Promise<number> {
    return this.#stories.countHolding(COLUMNS[kind], heldAs(kind, entry));
  }

  async storiesInLibrary(libraryId: string): Promise<number> {
    return (await this.#stories.countPerLibrary(libraryId)).get(libraryId) ?? 0;
  }

  async storiesPerLibrary(): Promise<Map<string, number>> {
    return this.#stories.countPerLibrary();
  }

  async folderHoldsStories(folderId: string): Promise<boolean> {
    return this.#stories.anyInFolder(folderId);
  }

  /**
   * Rewrites the stories that use `from` to use `into`: a single value becomes
   * the target's name (or its id, where the story held the id); in a list the
   * name is replaced and a story that had both keeps one, in the first place
   * either had. Through `executor` (the catalogue's merge transaction); each
   * changed story gets an `edit` action of `by` naming the field and the merge.
   */
  async repoint(
    kind: UsageKind,
    from: { id: string; name: string },
    into: { id: string; name: string },
    executor: Kysely<Database>,
    by: MergedBy,
  ): Promise<number> {
    const column = COLUMNS[kind];
    const stories = this.#stories.with(executor);
    const now = new Date().toISOString();
    const changed = (await stories.holding(column, heldAs(kind, from))).map((story) => ({
      ...story,
      value: isSingle(column)
        ? singleValue(story.value, from, into)
        : replaceInList(listOf(story.value), from.name, into.name),
    }));
    await stories.setColumn(column, changed, now);
    const actions = new StoryActionsRepository(executor, this.db.adapter);
    // In slices: one statement's bound values stay under the dialects' limits however many stories changed.
    for (let start = 0; start < changed.length; start += ACTIONS_PER_STATEMENT) {
      await actions.recordMany(
        changed.slice(start, start + ACTIONS_PER_STATEMENT).map((story) =>
          storyAction(by, { libraryId: story.libraryId, id: story.id }, "edit", {
            fields: [column],
            merged: { kind, from: from.name, into: into.name },
          }),
        ),
        now,
      );
    }
    return changed.length;
  }
}

function isSingle(column: CatalogueColumn): boolean {
  return (SINGLE_VALUE_COLUMNS as readonly string[]).includes(column);
}

/** The lower-case values a story may hold the entry as: its name, or for single values its id too. */
function heldAs(kind: UsageKind, entry: { id: string; name: string }): string[] {
  const name = entry.name.toLowerCase();
  return isSingle(COLUMNS[kind]) ? [name, entry.id.toLowerCase()] : [name];
}

/** A single value after the merge: the target's id where the story held the source's id, else its name. */
function singleValue(held: unknown, from: { id: string; name: string }, into: { id: string; name: string }): string {
  const value = String(held ?? "").toLowerCase();
  return value === from.id.toLowerCase() && value !== from.name.toLowerCase() ? into.id : into.name;
}

function listOf(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

/** The list with `from` (any case) replaced by `into`, each name once (any case), in first-seen order. */
function replaceInList(list: string[], from: string, into: string): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const item of list) {
    const value = item.toLowerCase() === from.toLowerCase() ? into : item;
    const key = value.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(value);
  }
  return result;
}
