import { type Kysely, type RawBuilder, type Selectable, sql } from "kysely";
import type { DialectAdapter } from "../../db/dialect/index.js";
import type { Database, StoriesTable } from "../../db/schema.js";
import { fts5Query, indexBody, type QueryTerm, tsQuery } from "./search-text.js";

/** A story's searchable fields, as read from its row. */
export interface SearchSource {
  id: string;
  title: string;
  caption: string;
  authors: string[];
  source: string | null;
  keywords: string[];
  tags: string[];
  theme: string | null;
  category: string | null;
  originalName: string | null;
  properties: Record<string, unknown>;
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
type WindowValues = Pick<Selectable<StoriesTable>, WindowColumn>;

/** Columns of `stories` whose change changes the index entry, its copied columns or its terms. */
const INDEXED_COLUMNS = new Set<string>([
  ...WINDOW_COLUMNS,
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
]);

/** Whether an update of these columns must rewrite the story's entry (processing state, covers… need not). */
export function touchesIndex(changes: object): boolean {
  return Object.keys(changes).some((column) => INDEXED_COLUMNS.has(column));
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

export function searchBody(story: SearchSource): string {
  return indexBody([
    story.title,
    story.caption,
    ...story.keywords,
    ...story.tags,
    ...story.authors,
    story.source,
    story.theme,
    story.category,
    story.originalName,
    ...propertyTexts(story.properties),
  ]);
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
 * The seam between the stories and the dialect's full-text engine: keeps a
 * story's entry in step (called by the stories repository inside the
 * transaction of its write) and gives the matching stories with a rank
 * (lower is better) to the search repository.
 */
export interface SearchIndex {
  /** Writes (or removes, when the story is gone) the story's entry and terms. */
  upsert(storyId: string): Promise<void>;
  /** Writes the entries of many stories at once (rebuilds); returns how many exist. */
  upsertMany(storyIds: string[]): Promise<number>;
  /** Removes the story's entry; call before the story row is deleted. */
  remove(storyId: string): Promise<void>;
  /** Empties the index (rebuild fills it again with upsert). */
  clear(): Promise<void>;
  /**
   * A derived table `(story_id, rank, seq, facet_terms, ...WINDOW_COLUMNS)` of
   * the stories matching every term; within `slice` only, when given.
   */
  matches(terms: QueryTerm[], slice?: Slice): RawBuilder<{ story_id: string; rank: number; seq: unknown }>;
  /**
   * About how many entries match the terms (any filter aside), from the
   * database's statistics, for engines that walk a common term's window
   * (`Slice.newest`); null when it has none.
   */
  estimate?(terms: QueryTerm[]): Promise<number | null>;
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

interface IndexEntry {
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

const columnList = (table?: string) =>
  sql.join(WINDOW_COLUMNS.map((column) => sql.ref(table ? `${table}.${column}` : column)));
const columnValues = (entry: IndexEntry) => sql.join(WINDOW_COLUMNS.map((column) => entry.columns[column]));
const columnUpdates = () =>
  sql.join(WINDOW_COLUMNS.map((column) => sql`${sql.ref(column)} = ${sql.ref(`excluded.${column}`)}`));

abstract class BaseSearchIndex implements SearchIndex {
  constructor(
    protected readonly kysely: Kysely<Database>,
    protected readonly adapter: DialectAdapter,
  ) {}

  protected abstract write(entries: IndexEntry[]): Promise<void>;
  abstract remove(storyId: string): Promise<void>;
  abstract clear(): Promise<void>;
  abstract matches(terms: QueryTerm[], slice?: Slice): RawBuilder<{ story_id: string; rank: number; seq: unknown }>;
  abstract recency(): RawBuilder<unknown>[];
  abstract month(table?: string): RawBuilder<string>;

  async upsert(storyId: string): Promise<void> {
    if ((await this.upsertMany([storyId])) === 0) await this.remove(storyId);
  }

  /** Writes the entries of these stories (the ones that exist); returns how many. */
  async upsertMany(storyIds: string[]): Promise<number> {
    if (storyIds.length === 0) return 0;
    const rows = await this.kysely
      .selectFrom("stories")
      .select([
        "id",
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
        ...WINDOW_COLUMNS,
      ])
      .where("id", "in", storyIds)
      .execute();
    if (rows.length === 0) return 0;
    const json = <T>(value: unknown, fallback: T): T =>
      value === null || value === undefined ? fallback : this.adapter.readJson<T>(value);
    // In the order asked for: SQLite gives new entries their rowids in this order (recency()).
    const order = new Map(storyIds.map((id, index) => [id, index]));
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
      columns: Object.fromEntries(WINDOW_COLUMNS.map((column) => [column, row[column]])) as WindowValues,
    }));
    await this.write(
      stories.map((story) => ({
        id: story.id,
        body: searchBody(story),
        columns: story.columns,
        facetTerms: facetTermsOf(story),
      })),
    );
    const ids = stories.map((story) => story.id);
    await this.kysely.deleteFrom("story_terms").where("story_id", "in", ids).execute();
    const terms = stories.flatMap(termRows);
    // Chunks keep each statement under SQLite's bound-parameter limit.
    for (let at = 0; at < terms.length; at += 300) {
      await this.kysely
        .insertInto("story_terms")
        .values(terms.slice(at, at + 300))
        .execute();
    }
    return stories.length;
  }
}

class SqliteSearchIndex extends BaseSearchIndex {
  protected async write(entries: IndexEntry[]): Promise<void> {
    const ids = entries.map((entry) => entry.id);
    // An existing story keeps its rowid (its place in recency()); its copied columns are rewritten.
    await sql`insert into story_search_keys (story_id, facet_terms, ${columnList()})
      values ${sql.join(entries.map((entry) => sql`(${entry.id}, ${entry.facetTerms}, ${columnValues(entry)})`))}
      on conflict (story_id) do update set facet_terms = excluded.facet_terms, ${columnUpdates()}`.execute(this.kysely);
    const { rows } = await sql<{ rowid: number; story_id: string }>`select rowid, story_id from story_search_keys
      where story_id in (${sql.join(ids)})`.execute(this.kysely);
    const rowids = new Map(rows.map((row) => [row.story_id, row.rowid]));
    await sql`delete from story_search where rowid in (${sql.join(rows.map((row) => row.rowid))})`.execute(this.kysely);
    await sql`insert into story_search (rowid, body) values ${sql.join(
      entries.map((entry) => sql`(${rowids.get(entry.id)!}, ${entry.body})`),
    )}`.execute(this.kysely);
  }

  async remove(storyId: string): Promise<void> {
    const { rows } = await sql<{
      rowid: number;
    }>`select rowid from story_search_keys where story_id = ${storyId}`.execute(this.kysely);
    if (rows.length === 0) return;
    await sql`delete from story_search where rowid = ${rows[0]!.rowid}`.execute(this.kysely);
    await sql`delete from story_search_keys where rowid = ${rows[0]!.rowid}`.execute(this.kysely);
    await this.kysely.deleteFrom("story_terms").where("story_id", "=", storyId).execute();
  }

  async clear(): Promise<void> {
    await sql`delete from story_search`.execute(this.kysely);
    await sql`delete from story_search_keys`.execute(this.kysely);
    await this.kysely.deleteFrom("story_terms").execute();
  }

  matches(terms: QueryTerm[]) {
    return sql<{
      story_id: string;
      rank: number;
      seq: number;
    }>`(select k.story_id as story_id, bm25(story_search) as rank, story_search.rowid as seq, k.facet_terms,
        ${columnList("k")}
      from story_search join story_search_keys k on k.rowid = story_search.rowid
      where story_search match ${fts5Query(terms)})`;
  }

  /**
   * FTS5 reads a match list in rowid order, either way, and stops at a LIMIT;
   * a story's rowid is given when it is first indexed, so the highest rowids
   * are the latest uploads (a story keeps its rowid when edited).
   */
  recency() {
    return [sql`m.seq`];
  }

  month(table = "stories") {
    return sql<string>`substr(coalesce(${sql.ref(`${table}.captured_at`)}, ${sql.ref(`${table}.created_at`)}), 1, 7)`;
  }
}

class PostgresSearchIndex extends BaseSearchIndex {
  protected async write(entries: IndexEntry[]): Promise<void> {
    await sql`insert into story_search (story_id, body, tsv, facet_terms, ${columnList()})
      select v.story_id::uuid, v.body, to_tsvector('simple', v.body), v.facet_terms, v.library_id, v.folder_id::uuid,
        v.type, v.status, v.created_by::uuid, v.created_at::timestamptz, v.captured_at::timestamptz
      from (values ${sql.join(
        entries.map((entry) => sql`(${entry.id}, ${entry.body}, ${entry.facetTerms}, ${columnValues(entry)})`),
      )})
        as v(story_id, body, facet_terms, ${columnList()})
      on conflict (story_id) do update set body = excluded.body, tsv = excluded.tsv, facet_terms = excluded.facet_terms,
        ${columnUpdates()}`.execute(this.kysely);
  }

  async remove(storyId: string): Promise<void> {
    await sql`delete from story_search where story_id = ${storyId}`.execute(this.kysely);
    await this.kysely.deleteFrom("story_terms").where("story_id", "=", storyId).execute();
  }

  async clear(): Promise<void> {
    await sql`delete from story_search`.execute(this.kysely);
    await this.kysely.deleteFrom("story_terms").execute();
  }

  matches(terms: QueryTerm[], slice?: Slice) {
    // A walk reads the newest entries through the upload-order index, with the query as a filter: the
    // LIMIT keeps the planner from gathering every match of a common term from the GIN index first.
    const from =
      slice && "newest" in slice
        ? sql`(select * from story_search ${slice.type ? sql`where type = ${slice.type}` : sql``}
            order by created_at desc, story_id desc limit ${slice.newest}) s`
        : sql`story_search s`;
    const older =
      slice && "olderThan" in slice
        ? sql` and (s.created_at, s.story_id) < (${slice.olderThan.createdAt}::timestamptz, ${slice.olderThan.storyId}::uuid)`
        : sql``;
    return sql<{
      story_id: string;
      rank: number;
      seq: null;
    }>`(select s.story_id as story_id, -ts_rank(s.tsv, q.q) as rank, null as seq, s.facet_terms, ${columnList("s")}
      from ${from}, to_tsquery('simple', ${tsQuery(terms)}) as q(q)
      where s.tsv @@ q.q${older})`;
  }

  /**
   * The share of entries holding each term, from the most common lexemes
   * PostgreSQL's ANALYZE keeps for the tsvector column (a lexeme not among
   * them is rarer than the rarest that is): a phrase's tokens and the terms
   * multiply, a prefix sums its lexemes, as the planner's own estimate does.
   */
  async estimate(terms: QueryTerm[]): Promise<number | null> {
    const stats = await lexemeStats(this.kysely);
    if (!stats) return null;
    const share = (token: string, prefix: boolean) => {
      if (!prefix) return stats.shares.get(token) ?? stats.rarest / 2;
      let sum = 0;
      for (const [lexeme, value] of stats.shares) if (lexeme.startsWith(token)) sum += value;
      return Math.min(1, Math.max(sum, stats.rarest / 2));
    };
    let estimate = stats.entries;
    for (const term of terms)
      term.tokens.forEach((token, index) => {
        estimate *= share(token, term.prefix && index === term.tokens.length - 1);
      });
    return estimate;
  }

  async walkEnd(count: number, type?: string): Promise<Cursor | null> {
    const { rows } = await sql<{ created_at: string; story_id: string }>`select created_at, story_id from story_search
      ${type ? sql`where type = ${type}` : sql``}
      order by created_at desc, story_id desc offset ${count - 1} limit 1`.execute(this.kysely);
    return rows[0] ? { createdAt: rows[0].created_at, storyId: rows[0].story_id } : null;
  }

  /**
   * The newest uploads, from the index's own copy: either the btree on
   * `created_at` read backwards with the query as a filter (common terms, stops
   * at the window) or the GIN bitmap and a top-N sort (selective terms).
   */
  recency() {
    return [sql`m.created_at`, sql`m.story_id`];
  }

  month(table = "stories") {
    return sql<string>`to_char(coalesce(${sql.ref(`${table}.captured_at`)}, ${sql.ref(`${table}.created_at`)}) at time zone 'UTC', 'YYYY-MM')`;
  }
}

/** How long the lexeme statistics are kept (they change only when ANALYZE runs). */
const STATS_TTL_MS = 60_000;
interface LexemeStats {
  entries: number;
  shares: Map<string, number>;
  rarest: number;
  at: number;
}
const statsCache = new WeakMap<Kysely<Database>, Promise<LexemeStats | null>>();

/** The most common lexemes of `story_search.tsv` and their shares, with the table's size (null: never analyzed). */
function lexemeStats(kysely: Kysely<Database>): Promise<LexemeStats | null> {
  const cached = statsCache.get(kysely);
  const load = async (): Promise<LexemeStats | null> => {
    const { rows } = await sql<{ elems: string[] | null; freqs: number[] | null; entries: number }>`select
        s.most_common_elems::text::text[] as elems, s.most_common_elem_freqs as freqs, c.reltuples::float8 as entries
      from pg_class c left join pg_stats s on s.tablename = c.relname and s.attname = 'tsv'
        and s.schemaname = current_schema()
      where c.relname = 'story_search' and c.relnamespace = current_schema()::regnamespace`.execute(kysely);
    const row = rows[0];
    if (!row?.elems || !row.freqs || row.entries <= 0) return null;
    const shares = new Map(row.elems.map((lexeme, index) => [lexeme, row.freqs![index]!]));
    // After the lexemes' shares come the smallest and the largest of them.
    return { entries: row.entries, shares, rarest: row.freqs[row.elems.length] ?? 0, at: Date.now() };
  };
  const next = cached
    ? cached.then((stats) => (stats && Date.now() - stats.at < STATS_TTL_MS ? stats : load()))
    : load();
  statsCache.set(kysely, next);
  next.catch(() => statsCache.delete(kysely));
  return next;
}

/** The dialect's index working through `kysely` (a transaction or the pool). */
export function searchIndexFor(kysely: Kysely<Database>, adapter: DialectAdapter): SearchIndex {
  return adapter.name === "sqlite" ? new SqliteSearchIndex(kysely, adapter) : new PostgresSearchIndex(kysely, adapter);
}
