import { createHash } from "node:crypto";
import type { CompiledQuery, Kysely, RawBuilder, Selectable } from "kysely";
import type { DialectAdapter } from "../../db/dialect/index.js";
import type { Database, StoriesTable } from "../../db/schema.js";
import { fieldTokens, GAP, indexTokens, type QueryTerm, TAG_MARK } from "./search-text.js";

/** A story's metadata texts, as a Story carries them and the index reads them (JSON decoded). */
export interface StoryTexts {
  title: string;
  caption: string;
  authors: string[];
  source: string | null;
  keywords: string[];
  tags: string[];
  theme: string | null;
  category: string | null;
  properties: Record<string, unknown>;
}

/** Reads a story's metadata texts from its row. */
export function readStoryTexts(
  row: Pick<Selectable<StoriesTable>, keyof StoryTexts>,
  adapter: Pick<DialectAdapter, "readJson">,
): StoryTexts {
  const json = <T>(value: unknown, fallback: T): T =>
    value === null || value === undefined ? fallback : adapter.readJson<T>(value);
  return {
    title: row.title,
    caption: row.caption,
    authors: json<string[]>(row.authors, []),
    source: row.source,
    keywords: json<string[]>(row.keywords, []),
    tags: json<string[]>(row.tags, []),
    theme: row.theme,
    category: row.category,
    properties: json<Record<string, unknown>>(row.properties, {}),
  };
}

/** A story's searchable fields, as read from its row. */
export interface SearchSource extends StoryTexts {
  id: string;
  originalName: string | null;
  /** A composite's text, its plain words. */
  text?: string;
}

/**
 * Columns of `stories` copied beside the index entry (migration 0013): a
 * full-text search filters and orders its window by them without reading
 * `stories` (the derived table of `matches()` carries them).
 */
export const WINDOW_COLUMNS = [
  "library_id",
  "folder_id",
  "type",
  "status",
  "created_by",
  "created_at",
  "captured_at",
] as const;
export type WindowColumn = (typeof WINDOW_COLUMNS)[number];

/** A place in the index's upload order (PostgreSQL's walk). */
export interface Cursor {
  createdAt: string;
  storyId: string;
}

/**
 * Part of the index a search looks in (PostgreSQL): the `newest` entries (of
 * `type`) read in upload order, newest first, so that a window stops reading
 * once full (a walk); or the entries older than `older` than a cursor.
 */
export type Slice = { newest: number; type?: string } | { olderThan: Cursor };

/** A story's copy of them, as the index holds it. */
export type WindowValues = Pick<Selectable<StoriesTable>, WindowColumn>;

/** Columns of `stories` the indexed text and the terms are made of. */
export const TEXT_COLUMNS = [
  "title",
  "caption",
  "authors",
  "source",
  "keywords",
  "tags",
  "theme",
  "category",
  "original_name",
  "properties",
] as const;

/** Columns of `stories` whose change changes the index entry, its copied columns or its terms. */
const INDEXED_COLUMNS = new Set<string>([...WINDOW_COLUMNS, ...TEXT_COLUMNS]);

/** Whether a write of these columns must rewrite the story's entry (processing state, covers… need not). */
export function touchesIndex(columns: readonly string[]): boolean {
  return columns.some((column) => INDEXED_COLUMNS.has(column));
}

/** Properties that are bookkeeping, not description. */
const SKIPPED_PROPERTIES = new Set(["lastVersion"]);
const MAX_TERM = 200;

/** String and number values of the properties (camera, city, lens…), one level of nesting. */
function propertyTexts(properties: Record<string, unknown>): string[] {
  const texts: string[] = [];
  const visit = (value: unknown, depth: number) => {
    if (typeof value === "string" || typeof value === "number") texts.push(String(value));
    else if (depth < 2 && Array.isArray(value)) for (const item of value) visit(item, depth + 1);
    else if (depth < 2 && value && typeof value === "object")
      for (const item of Object.values(value)) visit(item, depth + 1);
  };
  for (const [key, value] of Object.entries(properties)) if (!SKIPPED_PROPERTIES.has(key)) visit(value, 0);
  return texts;
}

/**
 * The tag of a restricted property's tokens (TAG_MARK and 12 hex digits of its name's SHA-256): a
 * search finds the property's text only when it asks for the tag (SearchIndex.matches `tags`).
 */
export function propertyTag(property: string): string {
  return TAG_MARK + createHash("sha256").update(property).digest("hex").slice(0, 12);
}

const NO_PROPERTIES: ReadonlySet<string> = new Set();

/**
 * The indexed body: every field's tokens, a GAP between fields. The text of the `restricted`
 * properties (those a role may not see, docs/property-access.md) comes last, each token behind its
 * property's tag, so that only searches by users who may see the property match it.
 */
export function searchBody(story: SearchSource, restricted: ReadonlySet<string> = NO_PROPERTIES): string {
  const open: Record<string, unknown> = {};
  const closed: [string, unknown][] = [];
  for (const [key, value] of Object.entries(story.properties)) {
    if (restricted.has(key)) closed.push([key, value]);
    else open[key] = value;
  }
  const stream = indexTokens([
    story.title,
    story.caption,
    ...story.keywords,
    ...story.tags,
    ...story.authors,
    story.source,
    story.theme,
    story.category,
    story.originalName,
    ...propertyTexts(open),
    story.text,
  ]);
  for (const [key, value] of closed) {
    const tag = propertyTag(key);
    for (const text of propertyTexts({ [key]: value })) {
      const found = fieldTokens(text);
      if (found.length === 0) continue;
      if (stream.length > 0) stream.push(GAP);
      for (const token of found) stream.push(token === GAP ? GAP : tag + token);
    }
  }
  return stream.join(" ");
}

/** An author, tag, keyword or source as story_terms holds it (`undefined`: none). */
export function termValue(raw: string | null | undefined): string | undefined {
  return typeof raw === "string" ? raw.trim().slice(0, MAX_TERM) || undefined : undefined;
}

export function termRows(story: SearchSource) {
  const rows = new Map<string, { story_id: string; kind: "author" | "tag" | "keyword" | "source"; value: string }>();
  const add = (kind: "author" | "tag" | "keyword" | "source", values: (string | null)[]) => {
    for (const raw of values) {
      const value = termValue(raw);
      if (value) rows.set(`${kind}\u0000${value}`, { story_id: story.id, kind, value });
    }
  };
  add("author", story.authors);
  add("tag", story.tags);
  add("keyword", story.keywords);
  add("source", [story.source]);
  return [...rows.values()];
}

/**
 * What the stories module tells of its writes, inside the write's
 * transaction: the search index keeps its entries in step. Built once in the
 * composition root (app.ts) and handed to the stories repository.
 */
export interface StoryChangeListener {
  /**
   * These stories were created, changed or deleted, through `executor` (a
   * transaction or the pool). `columns`: the columns the change wrote, when
   * known (a change of none the index holds costs nothing).
   */
  onStoriesChanged(ids: readonly string[], executor: Kysely<Database>, columns?: readonly string[]): Promise<void>;
}

/**
 * The seam between the stories and the dialect's full-text engine: keeps the
 * entries in step (StoryChangeListener) and gives the matching stories with a
 * rank (lower is better) to the search repository. One instance per process.
 */
export interface SearchIndex extends StoryChangeListener {
  /** Writes the entries of many stories at once (rebuilds); returns how many exist. */
  upsertMany(executor: Kysely<Database>, storyIds: readonly string[]): Promise<number>;
  /** Empties the index (rebuild fills it again with upsertMany). */
  clear(executor: Kysely<Database>): Promise<void>;
  /**
   * The engine's query text of these terms (`matches`' `match`, bound as one value). A term matches a
   * restricted property's text only when the property's tag is in `tags` (the restricted properties the
   * searcher may see).
   */
  matchText(terms: QueryTerm[], tags?: readonly string[]): string;
  /**
   * A derived table `(story_id, rank, seq, facet_terms, ...WINDOW_COLUMNS)` of
   * the stories matching `match` (matchText); within `slice` only, when given.
   */
  matches(match: string, slice?: Slice): RawBuilder<{ story_id: string; rank: number; seq: unknown }>;
  /**
   * The properties whose text is indexed behind their tag (propertyTag): every property some role
   * may not see, and perhaps a few no longer hidden. Read through `executor` when given.
   */
  restrictedProperties(executor?: Kysely<Database>): Promise<string[]>;
  /**
   * Makes `properties` the restricted ones, in the caller's transaction: the entries of the stories
   * that hold a property added or removed are rewritten (field-level access calls it on a rule change).
   */
  restrictProperties(executor: Kysely<Database>, properties: readonly string[]): Promise<void>;
  /**
   * About how many entries match the terms (any filter aside), from the
   * database's statistics, for engines that walk a common term's window
   * (`Slice.newest`); null when it has none.
   */
  estimate?(terms: QueryTerm[]): Promise<number | null>;
  /**
   * About how many rows `list` (a list of stories without full text, over
   * `libraries` libraries) answers, from the database's statistics, without
   * running it; null when there are none. A list above LIST_COUNT_CAP answers
   * it as its total (SearchRepository).
   */
  estimateList?(executor: Kysely<Database>, list: CompiledQuery, libraries: number): Promise<number | null>;
  /** Where the walk over the `count` newest entries (of `type`) ends: the oldest of them; null when fewer exist. */
  walkEnd?(count: number, type?: string): Promise<Cursor | null>;
  /**
   * Newest first, in the order the engine reads its matches cheaply (over the
   * derived table `m`, each descending): a full-text search looks at the first
   * matches in this order only (SearchRepository's window).
   */
  recency(): RawBuilder<unknown>[];
  /** `YYYY-MM` of the captured date, else the upload date, of `table` (`stories` or `m`). */
  month(table?: string): RawBuilder<string>;
}

/** What the index holds of a story. */
export interface IndexEntry {
  id: string;
  body: string;
  columns: WindowValues;
  /** The facet terms (author, source, tag) as JSON `[kind, value]` pairs (migration 0014). */
  facetTerms: string;
}

/** The kinds of story_terms a search counts as facets. */
export const FACET_TERM_KINDS = ["author", "source", "tag"] as const;

/** A story's facet terms as the index holds them (migration 0014). */
export function facetTermsOf(story: SearchSource): string {
  const kinds: readonly string[] = FACET_TERM_KINDS;
  return JSON.stringify(
    termRows(story)
      .filter((row) => kinds.includes(row.kind))
      .map((row) => [row.kind, row.value]),
  );
}
