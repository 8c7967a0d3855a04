import type { Db } from "../../db/database.js";
import type { Period } from "../stories/story-statistics.js";
import { MAX_USAGE_DAYS } from "./usage.schema.js";

/** Views of one story by one user on one UTC day. */
export interface ViewCount {
  day: string;
  storyId: string;
  userId: string;
  libraryId: string;
  views: number;
}

/** Searches for one (normalised) text that found nothing on one UTC day. */
export interface MissCount {
  day: string;
  query: string;
  searches: number;
  lastAt: string;
}

export interface SearchMissRow {
  query: string;
  searches: number;
  lastAt: string;
}

/** What the viewer and the search box tell the usage statistics; nothing is written while the request runs. */
export interface UsageRecorder {
  viewed(userId: string, story: { libraryId: string; storyId: string }): void;
  /** A full-text search and its total; only searches that found nothing are counted. */
  searched(fulltext: string | undefined, total: number): void;
}

const MAX_QUERY = 200;
const WRITE_BATCH = 500;

/** Trimmed, lower case, spaces collapsed, at most 200 characters: "Harbour  Fire" and "harbour fire" count together. */
export function normaliseQuery(text: string): string {
  return text.trim().replace(/\s+/gu, " ").toLowerCase().slice(0, MAX_QUERY);
}

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The UTC day (YYYY-MM-DD) of a moment, the last day's text kept: a view is
 * counted on every GET of a story, and `toISOString` per view was ~1 % of
 * that request's CPU (issue 21's profile).
 */
export class UtcDays {
  #start = 0;
  #end = 0;
  #text = "";

  of(at: Date): string {
    const time = at.getTime();
    if (!(time >= this.#start && time < this.#end)) {
      this.#start = Math.floor(time / DAY_MS) * DAY_MS;
      this.#end = this.#start + DAY_MS;
      this.#text = dayOf(at);
    }
    return this.#text;
  }
}

/** The first day whose counts are kept: the usage statistics' longest period (400 days) back from `now`. */
export function usageRetentionStart(now: Date): string {
  return dayOf(new Date(now.getTime() - (MAX_USAGE_DAYS + 1) * 24 * 60 * 60 * 1000));
}

/** The UTC days a period [from, to) touches, as [first, end) of YYYY-MM-DD. */
export function periodDays(period: Period): { first: string; end: string } {
  const to = new Date(period.to);
  const end = new Date(Date.UTC(to.getUTCFullYear(), to.getUTCMonth(), to.getUTCDate()));
  if (end.getTime() < to.getTime()) end.setUTCDate(end.getUTCDate() + 1);
  return { first: dayOf(new Date(period.from)), end: dayOf(end) };
}

/** The monitor module's tables `story_views` and `search_misses`. */
export class UsageCountersRepository {
  constructor(private readonly db: Db) {}

  /** Adds the counts to the stored rows (one upsert per 500 rows). */
  async add(views: ViewCount[], misses: MissCount[]): Promise<void> {
    const kysely = this.db.kysely;
    for (let start = 0; start < views.length; start += WRITE_BATCH) {
      await kysely
        .insertInto("story_views")
        .values(
          views.slice(start, start + WRITE_BATCH).map((row) => ({
            day: row.day,
            story_id: row.storyId,
            user_id: row.userId,
            library_id: row.libraryId,
            views: row.views,
          })),
        )
        .onConflict((conflict) =>
          conflict
            .columns(["day", "story_id", "user_id"])
            .doUpdateSet((eb) => ({ views: eb(eb.ref("story_views.views"), "+", eb.ref("excluded.views")) })),
        )
        .execute();
    }
    for (let start = 0; start < misses.length; start += WRITE_BATCH) {
      await kysely
        .insertInto("search_misses")
        .values(
          misses.slice(start, start + WRITE_BATCH).map((row) => ({
            day: row.day,
            query: row.query,
            searches: row.searches,
            last_at: row.lastAt,
          })),
        )
        .onConflict((conflict) =>
          conflict.columns(["day", "query"]).doUpdateSet((eb) => ({
            searches: eb(eb.ref("search_misses.searches"), "+", eb.ref("excluded.searches")),
            last_at: eb.ref("excluded.last_at"),
          })),
        )
        .execute();
    }
  }

  /** Views in the period's days grouped by story, user or library, most viewed first (at most `limit`). */
  async views(
    period: Period,
    by: "story" | "user" | "library",
    limit: number,
  ): Promise<{ key: string; views: number }[]> {
    const { first, end } = periodDays(period);
    const column = by === "story" ? "story_id" : by === "user" ? "user_id" : "library_id";
    const rows = await this.db.kysely
      .selectFrom("story_views")
      .select((eb) => [eb.ref(column).as("key"), eb.fn.sum<number>("views").as("views")])
      .where("day", ">=", first)
      .where("day", "<", end)
      .groupBy(column)
      .orderBy((eb) => eb.fn.sum("views"), "desc")
      .orderBy(column)
      .limit(limit)
      .execute();
    return rows.map((row) => ({ key: String(row.key), views: Number(row.views) }));
  }

  /** Searches that found nothing in the period's days, most frequent first. */
  async misses(period: Period, limit: number): Promise<SearchMissRow[]> {
    const { first, end } = periodDays(period);
    const rows = await this.db.kysely
      .selectFrom("search_misses")
      .select((eb) => ["query", eb.fn.sum<number>("searches").as("searches"), eb.fn.max("last_at").as("lastAt")])
      .where("day", ">=", first)
      .where("day", "<", end)
      .groupBy("query")
      .orderBy((eb) => eb.fn.sum("searches"), "desc")
      .orderBy("query")
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      query: row.query,
      searches: Number(row.searches),
      lastAt: new Date(row.lastAt).toISOString(),
    }));
  }

  /** Deletes the counts of days before `day` (YYYY-MM-DD); returns how many rows went. */
  async prune(day: string): Promise<number> {
    const views = await this.db.kysely.deleteFrom("story_views").where("day", "<", day).executeTakeFirst();
    const misses = await this.db.kysely.deleteFrom("search_misses").where("day", "<", day).executeTakeFirst();
    return Number(views.numDeletedRows) + Number(misses.numDeletedRows);
  }
}

export interface UsageCounterOptions {
  /** How often the counts gathered are written (5 s). */
  flushEveryMs?: number;
  /** Written at once when this many rows are waiting (1 000), so memory stays bounded. */
  maxPending?: number;
  onError?: (error: unknown) => void;
}

/**
 * Counts story views and searches that found nothing in memory, and writes
 * the sums every few seconds (and when the app closes): a request only adds
 * to a map, so neither the viewer nor the search waits for a write. Several
 * nodes each add their own sums (the upsert adds, it does not replace). A
 * crash loses at most the last few seconds' counts.
 */
export class UsageCounter implements UsageRecorder {
  #views = new Map<string, ViewCount>();
  #misses = new Map<string, MissCount>();
  #writing: Promise<void> = Promise.resolve();
  readonly #days = new UtcDays();
  readonly #timer: NodeJS.Timeout;
  readonly #maxPending: number;

  constructor(
    private readonly repository: UsageCountersRepository,
    private readonly options: UsageCounterOptions = {},
  ) {
    this.#maxPending = options.maxPending ?? 1000;
    this.#timer = setInterval(() => void this.flush(), options.flushEveryMs ?? 5000);
    this.#timer.unref();
  }

  viewed(userId: string, story: { libraryId: string; storyId: string }, at = new Date()): void {
    const day = this.#days.of(at);
    const key = `${day}|${story.storyId}|${userId}`;
    const found = this.#views.get(key);
    if (found) found.views += 1;
    else this.#views.set(key, { day, storyId: story.storyId, userId, libraryId: story.libraryId, views: 1 });
    this.#flushWhenFull();
  }

  searched(fulltext: string | undefined, total: number, at = new Date()): void {
    if (total > 0 || !fulltext) return;
    const query = normaliseQuery(fulltext);
    if (!query) return;
    const day = this.#days.of(at);
    const key = `${day}|${query}`;
    const found = this.#misses.get(key);
    if (found) {
      found.searches += 1;
      found.lastAt = at.toISOString();
    } else this.#misses.set(key, { day, query, searches: 1, lastAt: at.toISOString() });
    this.#flushWhenFull();
  }

  /** Writes what has been counted so far (one write at a time); resolves when it is stored. */
  flush(): Promise<void> {
    this.#writing = this.#writing.then(async () => {
      if (this.#views.size === 0 && this.#misses.size === 0) return;
      const views = [...this.#views.values()];
      const misses = [...this.#misses.values()];
      this.#views = new Map();
      this.#misses = new Map();
      try {
        await this.repository.add(views, misses);
      } catch (error) {
        this.options.onError?.(error);
      }
    });
    return this.#writing;
  }

  /** Stops the timer and writes the rest (the app's onClose). */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush();
  }

  #flushWhenFull(): void {
    if (this.#views.size + this.#misses.size >= this.#maxPending) void this.flush();
  }
}
