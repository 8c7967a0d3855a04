import { type Kysely, sql } from "kysely";
import type { Database } from "../../db/schema.js";
import type { IndexEntry } from "./search-index.js";
import { BaseSearchIndex, columnList, columnUpdates, columnValues } from "./search-index-base.js";
import { fts5Query, type QueryTerm } from "./search-text.js";

export class SqliteSearchIndex extends BaseSearchIndex {
  protected async write(executor: Kysely<Database>, entries: IndexEntry[]): Promise<void> {
    const ids = entries.map((entry) => entry.id);
    // An existing story keeps its rowid (its place in recency()); its copied columns are rewritten.
    await sql`insert into story_search_keys (story_id, facet_terms, ${columnList()})
      values ${sql.join(entries.map((entry) => sql`(${entry.id}, ${entry.facetTerms}, ${columnValues(entry)})`))}
      on conflict (story_id) do update set facet_terms = excluded.facet_terms, ${columnUpdates()}`.execute(executor);
    const { rows } = await sql<{ rowid: number; story_id: string }>`select rowid, story_id from story_search_keys
      where story_id in (${sql.join(ids)})`.execute(executor);
    const rowids = new Map(rows.map((row) => [row.story_id, row.rowid]));
    await sql`delete from story_search where rowid in (${sql.join(rows.map((row) => row.rowid))})`.execute(executor);
    await sql`insert into story_search (rowid, body) values ${sql.join(
      entries.map((entry) => sql`(${rowids.get(entry.id)!}, ${entry.body})`),
    )}`.execute(executor);
  }

  protected async remove(executor: Kysely<Database>, storyIds: readonly string[]): Promise<void> {
    const { rows } = await sql<{ rowid: number }>`select rowid from story_search_keys
      where story_id in (${sql.join(storyIds)})`.execute(executor);
    if (rows.length > 0) {
      const rowids = sql.join(rows.map((row) => row.rowid));
      await sql`delete from story_search where rowid in (${rowids})`.execute(executor);
      await sql`delete from story_search_keys where rowid in (${rowids})`.execute(executor);
    }
    await executor.deleteFrom("story_terms").where("story_id", "in", storyIds).execute();
  }

  async clear(executor: Kysely<Database>): Promise<void> {
    await sql`delete from story_search`.execute(executor);
    await sql`delete from story_search_keys`.execute(executor);
    await executor.deleteFrom("story_terms").execute();
  }

  /**
   * SQLite's planner does not tell its estimates; its statistics do: the
   * `sqlite_stat1` row of `stories_library_visible_idx` (written by the
   * maintenance job's `PRAGMA optimize`) holds the table's rows and the
   * average rows per library. The estimate is that average times the
   * libraries, at most the table: other filters (type, dates) are not in it.
   */
  async estimateList(executor: Kysely<Database>, _list: unknown, libraries: number): Promise<number | null> {
    const analysed = await sql<{ name: string }>`select name from sqlite_master where name = 'sqlite_stat1'`.execute(
      executor,
    );
    if (analysed.rows.length === 0) return null;
    const { rows } = await sql<{ stat: string }>`select stat from sqlite_stat1
      where tbl = 'stories' and idx = 'stories_library_visible_idx'`.execute(executor);
    const [total, perLibrary] = (rows[0]?.stat ?? "").split(" ").map(Number);
    if (!total || !perLibrary) return null;
    return Math.min(total, perLibrary * libraries);
  }

  matchText(terms: QueryTerm[], tags: readonly string[] = []): string {
    return fts5Query(terms, tags);
  }

  matches(match: string) {
    return sql<{
      story_id: string;
      rank: number;
      seq: number;
    }>`(select k.story_id as story_id, bm25(story_search) as rank, story_search.rowid as seq, k.facet_terms,
        ${columnList("k")}
      from story_search join story_search_keys k on k.rowid = story_search.rowid
      where story_search match ${match})`;
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
