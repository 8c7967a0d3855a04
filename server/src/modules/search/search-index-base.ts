import { type Kysely, type RawBuilder, sql } from "kysely";
import type { DialectAdapter } from "../../db/dialect/index.js";
import type { Database } from "../../db/schema.js";
import {
  facetTermsOf,
  type IndexEntry,
  type SearchIndex,
  type SearchSource,
  type Slice,
  searchBody,
  TEXT_COLUMNS,
  termRows,
  touchesIndex,
  WINDOW_COLUMNS,
  type WindowValues,
} from "./search-index.js";
import type { QueryTerm } from "./search-text.js";

export const columnList = (table?: string) =>
  sql.join(WINDOW_COLUMNS.map((column) => sql.ref(table ? `${table}.${column}` : column)));
export const columnValues = (entry: IndexEntry) => sql.join(WINDOW_COLUMNS.map((column) => entry.columns[column]));
export const columnUpdates = () =>
  sql.join(WINDOW_COLUMNS.map((column) => sql`${sql.ref(column)} = ${sql.ref(`excluded.${column}`)}`));

/** What both dialects' indexes share: reading a story's indexed columns, its terms, the change notices. */
export abstract class BaseSearchIndex implements SearchIndex {
  constructor(
    /** The pool, for the engine's statistics (never for writes: they come with their executor). */
    protected readonly kysely: Kysely<Database>,
    protected readonly adapter: DialectAdapter,
  ) {}

  protected abstract write(executor: Kysely<Database>, entries: IndexEntry[]): Promise<void>;
  /** Removes the entries of these stories (their rows are gone or going). */
  protected abstract remove(executor: Kysely<Database>, storyIds: readonly string[]): Promise<void>;
  abstract clear(executor: Kysely<Database>): Promise<void>;
  abstract matches(terms: QueryTerm[], slice?: Slice): RawBuilder<{ story_id: string; rank: number; seq: unknown }>;
  abstract recency(): RawBuilder<unknown>[];
  abstract month(table?: string): RawBuilder<string>;

  async onStoriesChanged(ids: readonly string[], executor: Kysely<Database>, columns?: readonly string[]) {
    if (ids.length === 0 || (columns && !touchesIndex(columns))) return;
    const written = await this.#upsert(executor, ids);
    const gone = ids.filter((id) => !written.has(id));
    if (gone.length > 0) await this.remove(executor, gone);
  }

  async upsertMany(executor: Kysely<Database>, storyIds: readonly string[]): Promise<number> {
    return (await this.#upsert(executor, storyIds)).size;
  }

  /** Writes the entries and terms of these stories (the ones that exist); returns their ids. */
  async #upsert(executor: Kysely<Database>, storyIds: readonly string[]): Promise<Set<string>> {
    if (storyIds.length === 0) return new Set();
    let read = executor
      .selectFrom("stories")
      .select(["id", ...TEXT_COLUMNS, ...WINDOW_COLUMNS])
      .where("id", "in", storyIds);
    // Two writers of the same entries (a rewrite of the index beside an edit) take turns (SQLite has one writer).
    if (this.adapter.name === "postgres") read = read.forUpdate();
    const rows = await read.execute();
    if (rows.length === 0) return new Set();
    const json = <T>(value: unknown, fallback: T): T =>
      value === null || value === undefined ? fallback : this.adapter.readJson<T>(value);
    // In the order asked for: SQLite gives new entries their rowids in this order (recency()).
    const order = new Map(storyIds.map((id, index) => [id, index]));
    // A composite's text (story_texts, the stories module's) is searched as its caption is.
    const composites = rows.filter((row) => row.type === "composite").map((row) => row.id);
    const texts = new Map(
      composites.length === 0
        ? []
        : (
            await executor
              .selectFrom("story_texts")
              .select(["story_id", "words"])
              .where("story_id", "in", composites)
              .execute()
          ).map((row) => [row.story_id, row.words]),
    );
    rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
    const stories: (SearchSource & { columns: WindowValues })[] = rows.map((row) => ({
      id: row.id,
      title: row.title,
      caption: row.caption,
      authors: json<string[]>(row.authors, []),
      source: row.source,
      keywords: json<string[]>(row.keywords, []),
      tags: json<string[]>(row.tags, []),
      theme: row.theme,
      category: row.category,
      originalName: row.original_name,
      properties: json<Record<string, unknown>>(row.properties, {}),
      text: texts.get(row.id),
      columns: Object.fromEntries(WINDOW_COLUMNS.map((column) => [column, row[column]])) as WindowValues,
    }));
    await this.write(
      executor,
      stories.map((story) => ({
        id: story.id,
        body: searchBody(story),
        columns: story.columns,
        facetTerms: facetTermsOf(story),
      })),
    );
    const ids = stories.map((story) => story.id);
    await executor.deleteFrom("story_terms").where("story_id", "in", ids).execute();
    const terms = stories.flatMap(termRows);
    // Chunks keep each statement under SQLite's bound-parameter limit.
    for (let at = 0; at < terms.length; at += 300) {
      await executor
        .insertInto("story_terms")
        .values(terms.slice(at, at + 300))
        .execute();
    }
    return new Set(ids);
  }
}
