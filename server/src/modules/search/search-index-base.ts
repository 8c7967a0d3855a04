import { type Kysely, type RawBuilder, type SqlBool, sql } from "kysely";
import type { DialectAdapter } from "../../db/dialect/index.js";
import { PreparedRead } from "../../db/prepared-read.js";
import type { Database } from "../../db/schema.js";
import {
  facetTermsOf,
  type IndexEntry,
  readStoryTexts,
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

/** The PostgreSQL advisory lock of the restricted properties: entry writers share it, a change of the set takes it alone. */
const RESTRICTED_LOCK = 0x5ea7c4;
/** Stories rewritten per statement when the restricted properties change. */
const REWRITE_BATCH = 500;

/** The restricted properties, by name (every search by a role that hides some reads them): compiled once. */
const restrictedByName = new PreparedRead(0, (kysely) =>
  kysely.selectFrom("search_restricted_properties").select("property").orderBy("property"),
);

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
  abstract matchText(terms: QueryTerm[], tags?: readonly string[]): string;
  abstract matches(match: string, slice?: Slice): RawBuilder<{ story_id: string; rank: number; seq: unknown }>;
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

  async restrictedProperties(executor: Kysely<Database> = this.kysely): Promise<string[]> {
    return (await restrictedByName.execute(executor, this.adapter)).map((row) => row.property);
  }

  async restrictProperties(executor: Kysely<Database>, properties: readonly string[]): Promise<void> {
    if (!executor.isTransaction) {
      await executor.transaction().execute((trx) => this.restrictProperties(trx, properties));
      return;
    }
    // No entry is written meanwhile by anyone else (their writes wait, then read the new set).
    if (this.adapter.name === "postgres") await sql`select pg_advisory_xact_lock(${RESTRICTED_LOCK})`.execute(executor);
    const before = new Set(await this.restrictedProperties(executor));
    const after = new Set(properties);
    const changed = [...new Set([...before, ...after])].filter(
      (property) => before.has(property) !== after.has(property),
    );
    if (changed.length === 0) return;
    await executor.deleteFrom("search_restricted_properties").execute();
    if (after.size > 0)
      await executor
        .insertInto("search_restricted_properties")
        .values([...after].map((property) => ({ property })))
        .execute();
    // The stories holding a property whose text moves behind its tag or out from behind it, a batch at a time.
    let last: string | undefined;
    for (;;) {
      let next = executor
        .selectFrom("stories")
        .select("id")
        .where(this.#holdsAny(changed))
        .orderBy("id")
        .limit(REWRITE_BATCH);
      if (last !== undefined) next = next.where("id", ">", last);
      const ids = (await next.execute()).map((row) => row.id);
      if (ids.length === 0) break;
      // Without FOR UPDATE: a story's writer may hold its row and wait for the lock this transaction holds.
      await this.#upsert(executor, ids, { locked: true });
      last = ids[ids.length - 1];
      if (ids.length < REWRITE_BATCH) break;
    }
  }

  /** Stories whose `properties` hold any of these keys. */
  #holdsAny(properties: readonly string[]) {
    return this.adapter.name === "postgres"
      ? sql<SqlBool>`jsonb_typeof(stories.properties) = 'object' and stories.properties ?| ${sql.val([...properties])}::text[]`
      : sql<SqlBool>`exists (select 1 from json_each(case when json_valid(stories.properties)
          and json_type(stories.properties) = 'object' then stories.properties else '{}' end) as p
          where p.key in (${sql.join(properties)}))`;
  }

  /**
   * Writes the entries and terms of these stories (the ones that exist); returns their ids. `locked`:
   * the caller holds the restricted set's lock (restrictProperties).
   */
  async #upsert(
    executor: Kysely<Database>,
    storyIds: readonly string[],
    options: { locked?: boolean } = {},
  ): Promise<Set<string>> {
    if (storyIds.length === 0) return new Set();
    if (!executor.isTransaction) return executor.transaction().execute((trx) => this.#upsert(trx, storyIds, options));
    const postgres = this.adapter.name === "postgres";
    // The restricted set cannot change until this transaction ends (restrictProperties waits for it).
    if (postgres && !options.locked)
      await sql`select pg_advisory_xact_lock_shared(${RESTRICTED_LOCK})`.execute(executor);
    const restricted = new Set(await this.restrictedProperties(executor));
    let read = executor
      .selectFrom("stories")
      .select(["id", ...TEXT_COLUMNS, ...WINDOW_COLUMNS])
      .where("id", "in", storyIds);
    // Two writers of the same entries (a rewrite of the index beside an edit) take turns (SQLite has one writer).
    if (postgres && !options.locked) read = read.forUpdate();
    const rows = await read.execute();
    if (rows.length === 0) return new Set();
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
      ...readStoryTexts(row, this.adapter),
      originalName: row.original_name,
      text: texts.get(row.id),
      columns: Object.fromEntries(WINDOW_COLUMNS.map((column) => [column, row[column]])) as WindowValues,
    }));
    await this.write(
      executor,
      stories.map((story) => ({
        id: story.id,
        body: searchBody(story, restricted),
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
