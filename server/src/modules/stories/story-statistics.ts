import { type Kysely, sql } from "kysely";
import type { Db } from "../../db/database.js";
import type { Database, StoryStatus, StoryType } from "../../db/schema.js";

/** Which part of a story's storage a file is. */
export type StoragePart = "original" | "rendition" | "version";

export interface StorageRow {
  libraryId: string;
  type: StoryType;
  part: StoragePart;
  files: number;
  bytes: number;
}

export interface StoryCountRow {
  libraryId: string;
  type: StoryType;
  stories: number;
}

export interface DailyGrowth {
  /** YYYY-MM-DD (UTC). */
  day: string;
  files: number;
  bytes: number;
}

export interface StoryStatusRow {
  libraryId: string;
  type: StoryType;
  status: StoryStatus;
  stories: number;
}

export interface DailyCount {
  /** YYYY-MM-DD (UTC). */
  day: string;
  count: number;
}

export interface NamedCount {
  name: string;
  stories: number;
}

/** A period [from, to) of ISO instants. */
export interface Period {
  from: string;
  to: string;
}

/** The story actions the usage statistics count. */
export type UsageAction = "download" | "publish";

/** What usage is grouped by (besides shares, which the shares module counts). */
export type UsageDimension = "story" | "user" | "library" | "author" | "source";

export interface UsageRow {
  /** The story's, user's or library's id; the author's or source's name. */
  key: string;
  /** The story's title, the user's name; null where the key says it all. */
  label: string | null;
  download: number;
  publish: number;
}

export interface StorySummary {
  id: string;
  libraryId: string;
  title: string;
  authors: string[];
  source: string | null;
}

/** The day of a timestamp column as YYYY-MM-DD, the same on SQLite (ISO text) and PostgreSQL (timestamptz in UTC). */
const dayOf = (column: string) => sql<string>`substr(cast(${sql.ref(column)} as text), 1, 10)`;

/**
 * The storage monitor's figures from the stories' tables, each one GROUP BY:
 * files and bytes by library, story type and part (the current version's
 * original, its renditions, older versions' files), stories by library and
 * type, and files added per day.
 */
export class StoryStatistics {
  constructor(private readonly db: Db) {}

  /** Stories by library, type and status (one GROUP BY; the data monitor sums it each way). */
  async statuses(): Promise<StoryStatusRow[]> {
    const rows = await this.db.kysely
      .selectFrom("stories")
      .select((eb) => ["library_id as libraryId", "type", "status", eb.fn.countAll<number>().as("stories")])
      .groupBy(["library_id", "type", "status"])
      .execute();
    return rows.map((row) => ({ ...row, stories: Number(row.stories) }));
  }

  /** Stories made per day since `since` (ISO) that still exist, oldest day first (index stories_created_at_idx). */
  async storiesPerDay(since: string): Promise<DailyCount[]> {
    const day = dayOf("created_at");
    const rows = await this.db.kysely
      .selectFrom("stories")
      .select((eb) => [day.as("day"), eb.fn.countAll<number>().as("count")])
      .where("created_at", ">=", since)
      .groupBy(day)
      .orderBy(day)
      .execute();
    return rows.map((row) => ({ day: row.day, count: Number(row.count) }));
  }

  /** Story actions of one kind (create: an upload; commit) per day since `since`, from the action trail. */
  async actionsPerDay(action: "create" | "commit", since: string): Promise<DailyCount[]> {
    const day = dayOf("at");
    const rows = await this.db.kysely
      .selectFrom("story_actions")
      .select((eb) => [day.as("day"), eb.fn.countAll<number>().as("count")])
      .where("action", "=", action)
      .where("at", ">=", since)
      .groupBy(day)
      .orderBy(day)
      .execute();
    return rows.map((row) => ({ day: row.day, count: Number(row.count) }));
  }

  /** The sources with the most stories made since `since`, most first. */
  async topSources(since: string, limit: number): Promise<NamedCount[]> {
    const rows = await this.db.kysely
      .selectFrom("stories")
      .select((eb) => ["source", eb.fn.countAll<number>().as("stories")])
      .where("created_at", ">=", since)
      .where("source", "is not", null)
      .where("source", "<>", "")
      .groupBy("source")
      .orderBy("stories", "desc")
      .orderBy("source")
      .limit(limit)
      .execute();
    return rows.map((row) => ({ name: row.source ?? "", stories: Number(row.stories) }));
  }

  /**
   * The authors with the most stories made since `since`. `authors` is a JSON list, so the stories are grouped
   * by their list (one row per distinct list, far fewer than stories) and each list's names counted here.
   */
  async topAuthors(since: string, limit: number): Promise<NamedCount[]> {
    const rows = await this.db.kysely
      .selectFrom("stories")
      .select((eb) => ["authors", eb.fn.countAll<number>().as("stories")])
      .where("created_at", ">=", since)
      .groupBy("authors")
      .execute();
    const counts = new Map<string, number>();
    for (const row of rows) {
      for (const name of new Set(authorNames(this.db.adapter.readJson(row.authors)))) {
        counts.set(name, (counts.get(name) ?? 0) + Number(row.stories));
      }
    }
    return [...counts]
      .map(([name, stories]) => ({ name, stories }))
      .sort((a, b) => b.stories - a.stories || a.name.localeCompare(b.name))
      .slice(0, limit);
  }

  /**
   * Downloads and publishes within a period grouped by story, user, library, author or source, most used first
   * (index story_actions_action_at_idx). Author rows count an action once per author of its story.
   */
  async usage(period: Period, by: UsageDimension, limit: number): Promise<UsageRow[]> {
    const count = (action: UsageAction) => sql<number>`sum(case when a.action = ${action} then 1 else 0 end)`;
    const base = this.db.kysely
      .selectFrom("story_actions as a")
      .where("a.action", "in", ["download", "publish"])
      .where("a.at", ">=", period.from)
      .where("a.at", "<", period.to);
    const total = sql<number>`count(*)`;
    if (by === "author") {
      const rows = await base
        .innerJoin("stories as s", "s.id", "a.story_id")
        .select(["s.authors as authors", count("download").as("download"), count("publish").as("publish")])
        .groupBy("s.authors")
        .execute();
      const sums = new Map<string, UsageRow>();
      for (const row of rows) {
        for (const name of new Set(authorNames(this.db.adapter.readJson(row.authors)))) {
          const found = sums.get(name) ?? { key: name, label: null, download: 0, publish: 0 };
          found.download += Number(row.download);
          found.publish += Number(row.publish);
          sums.set(name, found);
        }
      }
      return [...sums.values()]
        .sort((a, b) => b.download + b.publish - (a.download + a.publish) || a.key.localeCompare(b.key))
        .slice(0, limit);
    }
    const rows =
      by === "story"
        ? await base
            .innerJoin("stories as s", "s.id", "a.story_id")
            .select([
              "s.id as key",
              "s.title as label",
              count("download").as("download"),
              count("publish").as("publish"),
            ])
            .groupBy(["s.id", "s.title"])
            .orderBy(total, "desc")
            .orderBy("s.id")
            .limit(limit)
            .execute()
        : by === "source"
          ? await base
              .innerJoin("stories as s", "s.id", "a.story_id")
              .where("s.source", "is not", null)
              .select(["s.source as key", count("download").as("download"), count("publish").as("publish")])
              .groupBy("s.source")
              .orderBy(total, "desc")
              .orderBy("s.source")
              .limit(limit)
              .execute()
          : by === "user"
            ? await base
                .where("a.user_id", "is not", null)
                .select((eb) => [
                  "a.user_id as key",
                  eb.fn.max("a.username").as("label"),
                  count("download").as("download"),
                  count("publish").as("publish"),
                ])
                .groupBy("a.user_id")
                .orderBy(total, "desc")
                .orderBy("a.user_id")
                .limit(limit)
                .execute()
            : await base
                .select(["a.library_id as key", count("download").as("download"), count("publish").as("publish")])
                .groupBy("a.library_id")
                .orderBy(total, "desc")
                .orderBy("a.library_id")
                .limit(limit)
                .execute();
    return rows.map((row) => ({
      key: String(row.key ?? ""),
      label: "label" in row ? ((row.label as string | null) ?? null) : null,
      download: Number(row.download),
      publish: Number(row.publish),
    }));
  }

  /** Stories not downloaded nor published within the period, oldest first (one page). */
  async unused(period: Period, limit: number): Promise<StorySummary[]> {
    const rows = await this.db.kysely
      .selectFrom("stories as s")
      .select(["s.id", "s.library_id as libraryId", "s.title", "s.authors", "s.source"])
      .where("s.created_at", "<", period.to)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom("story_actions as a")
              .select("a.id")
              .whereRef("a.story_id", "=", "s.id")
              .where("a.action", "in", ["download", "publish"])
              .where("a.at", ">=", period.from)
              .where("a.at", "<", period.to),
          ),
        ),
      )
      .orderBy("s.created_at")
      .orderBy("s.id")
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      id: row.id,
      libraryId: row.libraryId,
      title: row.title,
      authors: authorNames(this.db.adapter.readJson(row.authors)),
      source: row.source,
    }));
  }

  /** Title, library, authors and source of the stories given (for rows another module counted). */
  async summaries(ids: string[]): Promise<StorySummary[]> {
    const found: StorySummary[] = [];
    for (let start = 0; start < ids.length; start += 500) {
      const rows = await this.db.kysely
        .selectFrom("stories")
        .select(["id", "library_id as libraryId", "title", "authors", "source"])
        .where("id", "in", ids.slice(start, start + 500))
        .execute();
      for (const row of rows) {
        found.push({ ...row, authors: authorNames(this.db.adapter.readJson(row.authors)) });
      }
    }
    return found;
  }

  async storage(): Promise<StorageRow[]> {
    const part = sql<StoragePart>`case when f.version_no < s.version_no then 'version' when f.role = 'original' then 'original' else 'rendition' end`;
    const rows = await this.db.kysely
      .selectFrom("story_files as f")
      .innerJoin("stories as s", "s.id", "f.story_id")
      .select((eb) => [
        "s.library_id as libraryId",
        "s.type as type",
        part.as("part"),
        eb.fn.countAll<number>().as("files"),
        eb.fn.sum<number>("f.size").as("bytes"),
      ])
      .groupBy(["s.library_id", "s.type", part])
      .execute();
    return rows.map((row) => ({ ...row, files: Number(row.files), bytes: Number(row.bytes ?? 0) }));
  }

  async stories(): Promise<StoryCountRow[]> {
    const rows = await this.db.kysely
      .selectFrom("stories")
      .select((eb) => ["library_id as libraryId", "type", eb.fn.countAll<number>().as("stories")])
      .groupBy(["library_id", "type"])
      .execute();
    return rows.map((row) => ({ ...row, stories: Number(row.stories) }));
  }

  /** Files and bytes added per day since `since` (ISO), oldest day first. */
  async growth(since: string): Promise<DailyGrowth[]> {
    const day = dayOf("created_at");
    const rows = await this.db.kysely
      .selectFrom("story_files")
      .select((eb) => [day.as("day"), eb.fn.countAll<number>().as("files"), eb.fn.sum<number>("size").as("bytes")])
      .where("created_at", ">=", since)
      .groupBy(day)
      .orderBy(day)
      .execute();
    return rows.map((row) => ({ day: row.day, files: Number(row.files), bytes: Number(row.bytes ?? 0) }));
  }

  /** Every blob key a library's stories use (files of every version, renditions, covers), in key order. */
  /**
   * Every stored byte of a library's stories (originals, renditions, older versions): what its quota
   * counts. Through `executor` (a transaction) when given.
   */
  async libraryBytes(libraryId: string, executor: Kysely<Database> = this.db.kysely): Promise<number> {
    const row = await executor
      .selectFrom("story_files as f")
      .innerJoin("stories as s", "s.id", "f.story_id")
      .select((eb) => eb.fn.sum<number | string>("f.size").as("bytes"))
      .where("s.library_id", "=", libraryId)
      .executeTakeFirst();
    return Number(row?.bytes ?? 0);
  }

  async blobKeysOfLibrary(libraryId: string): Promise<string[]> {
    const files = this.db.kysely
      .selectFrom("story_files as f")
      .innerJoin("stories as s", "s.id", "f.story_id")
      .select("f.blob_key as key")
      .where("s.library_id", "=", libraryId);
    const versions = this.db.kysely
      .selectFrom("story_versions as v")
      .innerJoin("stories as s", "s.id", "v.story_id")
      .select("v.blob_key as key")
      .where("s.library_id", "=", libraryId)
      .where("v.blob_key", "is not", null);
    const covers = this.db.kysely
      .selectFrom("stories")
      .select("cover_key as key")
      .where("library_id", "=", libraryId)
      .where("cover_key", "is not", null);
    const rows = (await Promise.all([files.execute(), versions.execute(), covers.execute()])).flat();
    const keys = new Set(rows.map((row) => row.key).filter((key): key is string => key !== null));
    return [...keys].sort();
  }
}

function authorNames(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter((name): name is string => typeof name === "string" && name.trim().length > 0);
}
