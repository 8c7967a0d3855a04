import { CompiledQuery, type Kysely, sql } from "kysely";
import type { Database } from "../../db/schema.js";
import type { Cursor, IndexEntry, Slice } from "./search-index.js";
import { BaseSearchIndex, columnList, columnUpdates, columnValues } from "./search-index-base.js";
import { type QueryTerm, tsQuery, tsvectorLiteral } from "./search-text.js";

export class PostgresSearchIndex extends BaseSearchIndex {
  protected async write(executor: Kysely<Database>, entries: IndexEntry[]): Promise<void> {
    await sql`insert into story_search (story_id, body, tsv, facet_terms, ${columnList()})
      select v.story_id::uuid, v.body, v.tsv::tsvector, v.facet_terms, v.library_id, v.folder_id::uuid,
        v.type, v.status, v.created_by::uuid, v.created_at::timestamptz, v.captured_at::timestamptz
      from (values ${sql.join(
        entries.map(
          (entry) =>
            sql`(${entry.id}, ${entry.body}, ${tsvectorLiteral(entry.body)}, ${entry.facetTerms}, ${columnValues(entry)})`,
        ),
      )})
        as v(story_id, body, tsv, facet_terms, ${columnList()})
      on conflict (story_id) do update set body = excluded.body, tsv = excluded.tsv, facet_terms = excluded.facet_terms,
        ${columnUpdates()}`.execute(executor);
  }

  protected async remove(executor: Kysely<Database>, storyIds: readonly string[]): Promise<void> {
    await sql`delete from story_search where story_id in (${sql.join(storyIds)})`.execute(executor);
    await executor.deleteFrom("story_terms").where("story_id", "in", storyIds).execute();
  }

  async clear(executor: Kysely<Database>): Promise<void> {
    await sql`delete from story_search`.execute(executor);
    await executor.deleteFrom("story_terms").execute();
  }

  matchText(terms: QueryTerm[], tags: readonly string[] = []): string {
    return tsQuery(terms, tags);
  }

  matches(match: string, slice?: Slice) {
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
      from ${from}, cast(${match} as tsquery) as q(q)
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

  /**
   * The planner's row estimate of the list (EXPLAIN, which plans the query and
   * does not run it: well under a millisecond), from the statistics autovacuum
   * keeps; measured at 1 000 000 stories in docs/scale.md, section 1.
   */
  async estimateList(executor: Kysely<Database>, list: CompiledQuery): Promise<number | null> {
    const { rows } = await executor.executeQuery<{ "QUERY PLAN": unknown }>(
      CompiledQuery.raw(`explain (format json) ${list.sql}`, [...list.parameters]),
    );
    const raw = rows[0]?.["QUERY PLAN"];
    const plans = (typeof raw === "string" ? JSON.parse(raw) : raw) as { Plan?: { "Plan Rows"?: unknown } }[];
    const estimate = plans?.[0]?.Plan?.["Plan Rows"];
    return typeof estimate === "number" ? estimate : null;
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
