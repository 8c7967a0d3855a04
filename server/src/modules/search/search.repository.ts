import {
  type CompiledQuery,
  type Expression,
  type Kysely,
  type SelectExpression,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
} from "kysely";
import type { DialectAdapter } from "../../db/dialect/index.js";
import type { Database, StoryStatus, StoryType } from "../../db/schema.js";
import type { StoryRow } from "../stories/story-types.js";
import { type SearchIndex, searchIndexFor, type WindowColumn } from "./search-index.js";
import { parseQuery } from "./search-text.js";

export const SEARCH_SORTS = ["relevance", "date", "captured", "updated", "title", "size"] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];
export const ORIENTATIONS = ["landscape", "portrait", "square"] as const;
export type Orientation = (typeof ORIENTATIONS)[number];

export interface SearchFilter {
  libraryIds: string[];
  /** Drafts are listed only for the user who created them. */
  viewerId: string;
  fulltext?: string;
  folderId?: string;
  types?: StoryType[];
  statuses?: StoryStatus[];
  halfProduct?: boolean;
  createdBy?: string;
  /** Substring of the title or caption (the list's historic `keyword`). */
  like?: string;
  capturedFrom?: string;
  capturedTo?: string;
  uploadedFrom?: string;
  uploadedTo?: string;
  /** Any of the values matches (the selected values of a facet). */
  author?: string[];
  source?: string[];
  tag?: string[];
  keyword?: string[];
  /** YYYY-MM of the captured date, else the upload date; any of them. */
  months?: string[];
  orientation?: Orientation;
  hasGps?: boolean;
}

export interface SearchOrder {
  sort?: SearchSort;
  order?: "asc" | "desc";
}

export interface FacetValue {
  value: string;
  count: number;
}

export interface Facets {
  type: FacetValue[];
  library: FacetValue[];
  month: FacetValue[];
  author: FacetValue[];
  source: FacetValue[];
  tag: FacetValue[];
}

/** Values listed per facet (the most frequent first). */
export const FACET_LIMIT = 50;

/**
 * Matching stories a full-text search looks at: the newest this many that
 * pass the filters (SearchIndex.recency). The total, the facets and every
 * sort work within them, so the cost of a search is bounded by the window,
 * not by the number of matches; a larger result reports `capped`.
 */
export const SEARCH_WINDOW = 2000;

export interface SearchListResult {
  rows: StoryRow[];
  total: number;
  /** More stories match than the window holds: `total` is the window's size. */
  capped: boolean;
}

function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** A column or an aliased expression of a window's rows. */
// biome-ignore lint/suspicious/noExplicitAny: window columns come from the derived match table `m`, not in Database.
type Selected = SelectExpression<any, any>;

// biome-ignore lint/suspicious/noExplicitAny: the derived match table `m` is not in Database.
type Base = SelectQueryBuilder<any, any, object>;

/** The stories list with full-text search, filters, sorts and facets. */
export class SearchRepository {
  readonly index: SearchIndex;

  constructor(
    private readonly kysely: Kysely<Database>,
    private readonly adapter: DialectAdapter,
    private readonly window = SEARCH_WINDOW,
  ) {
    this.index = searchIndexFor(kysely, adapter);
  }

  /**
   * Filtered stories; `null` when a full-text query holds nothing searchable
   * (matches nothing). With full text the rows come from the index's derived
   * table `m`, which carries the story's filter and window columns
   * (WINDOW_COLUMNS): `stories` is joined only when a filter (or `withStories`,
   * for a sort) needs a column the index does not hold.
   */
  #base(filter: SearchFilter, withStories = false): { base: Base; ranked: boolean; stories: boolean } | null {
    const fulltext = filter.fulltext !== undefined && filter.fulltext.trim() !== "";
    const terms = fulltext ? parseQuery(filter.fulltext!) : [];
    if (fulltext && terms.length === 0) return null;
    const ranked = fulltext;
    const stories =
      !ranked ||
      withStories ||
      Boolean(filter.like) ||
      filter.halfProduct !== undefined ||
      filter.orientation !== undefined ||
      filter.hasGps !== undefined;
    let base: Base = ranked
      ? this.kysely.selectFrom(this.index.matches(terms).as("m"))
      : this.kysely.selectFrom("stories");
    if (ranked && stories) base = base.innerJoin("stories", "stories.id", "m.story_id");
    const table = ranked ? "m" : "stories";
    const column = (name: WindowColumn) => sql.ref(`${table}.${name}`);
    const id = sql.ref(ranked ? "m.story_id" : "stories.id");
    base = base.where(column("library_id"), "in", filter.libraryIds);
    if (filter.folderId) base = base.where(column("folder_id"), "=", filter.folderId);
    if (filter.types?.length) base = base.where(column("type"), "in", filter.types);
    if (filter.statuses?.length) base = base.where(column("status"), "in", filter.statuses);
    if (filter.halfProduct !== undefined) base = base.where("stories.half_product", "=", filter.halfProduct);
    if (filter.createdBy) base = base.where(column("created_by"), "=", filter.createdBy);
    const viewer = filter.viewerId;
    base = base.where((eb) => eb.or([eb(column("status"), "<>", "draft"), eb(column("created_by"), "=", viewer)]));
    if (filter.like) {
      const pattern = likePattern(filter.like);
      base = base.where(
        sql<SqlBool>`(lower(stories.title) like ${pattern} escape '\\' or lower(stories.caption) like ${pattern} escape '\\')`,
      );
    }
    if (filter.capturedFrom) base = base.where(column("captured_at"), ">=", filter.capturedFrom);
    if (filter.capturedTo) base = base.where(column("captured_at"), "<", filter.capturedTo);
    if (filter.uploadedFrom) base = base.where(column("created_at"), ">=", filter.uploadedFrom);
    if (filter.uploadedTo) base = base.where(column("created_at"), "<", filter.uploadedTo);
    for (const kind of ["author", "source", "tag", "keyword"] as const) {
      const values = filter[kind];
      if (!values?.length) continue;
      const ids = this.kysely
        .selectFrom("story_terms")
        .select("story_terms.story_id")
        .where("story_terms.kind", "=", kind)
        .where("story_terms.value", "in", values);
      base = base.where(id, "in", ids);
    }
    if (filter.months?.length) {
      const months = filter.months;
      base = base.where((eb) => eb.or(months.map((month) => eb(this.index.month(table), "=", month))));
    }
    if (filter.orientation === "landscape") base = base.where(sql<SqlBool>`stories.width > stories.height`);
    if (filter.orientation === "portrait") base = base.where(sql<SqlBool>`stories.height > stories.width`);
    if (filter.orientation === "square") base = base.where(sql<SqlBool>`stories.width = stories.height`);
    if (filter.hasGps !== undefined) base = base.where("stories.gps", filter.hasGps ? "is not" : "is", null);
    return { base, ranked, stories };
  }

  /** Orders by the sort's columns of `table` (`stories`, or a window's rows, which carry the same columns and `rank`). */
  #order(base: Base, ranked: boolean, order: SearchOrder, table = "stories"): Base {
    const sort = order.sort ?? (ranked ? "relevance" : "updated");
    const direction = (fallback: "asc" | "desc") => order.order ?? fallback;
    const column = (name: string) => sql.ref(`${table}.${name}`);
    switch (sort) {
      case "relevance":
        // Without a full-text query there is no rank: newest first.
        if (ranked) base = base.orderBy(column("rank"), direction("desc") === "desc" ? "asc" : "desc");
        base = base.orderBy(column("created_at"), "desc");
        break;
      case "date":
        base = base.orderBy(column("created_at"), direction("desc"));
        break;
      case "captured":
        base = base.orderBy(column("captured_at"), direction("desc"));
        break;
      case "updated":
        base = base.orderBy(column("updated_at"), direction("desc"));
        break;
      case "title":
        base = base.orderBy(column("title"), direction("asc"));
        break;
      case "size":
        base = base.orderBy(column("size"), direction("desc"));
        break;
    }
    return base.orderBy(column("id"));
  }

  /**
   * The window of a full-text search: the filtered matches, newest first
   * (SearchIndex.recency), at most `limit` of them, with `columns` of each.
   */
  #window(base: Base, columns: Selected[], limit = this.window): Base {
    return base.select(columns).orderBy(this.index.recency(), "desc").limit(limit);
  }

  /** The columns a window's rows are sorted by (#order): from the index, and from `stories` when joined. */
  #sortColumns(stories: boolean): Selected[] {
    return [
      sql.ref("m.story_id").as("id"),
      sql.ref("m.created_at").as("created_at"),
      sql.ref("m.captured_at").as("captured_at"),
      sql<number>`m.rank`.as("rank"),
      ...(stories ? ["stories.updated_at", "stories.title", "stories.size"] : []),
    ];
  }

  /**
   * The page. With full text the window's narrow rows are sorted and cut
   * first (`p`), and only the page's stories are read whole.
   */
  #page(filter: SearchFilter, page: { page: number; size: number } & SearchOrder): Base | null {
    // Sorts by a column the index does not copy read it from `stories` for the window's rows.
    const needsStories = page.sort === "updated" || page.sort === "title" || page.sort === "size";
    const built = filter.libraryIds.length === 0 ? null : this.#base(filter, needsStories);
    if (!built) return null;
    if (!built.ranked)
      return this.#order(built.base, false, page)
        .selectAll("stories")
        .limit(page.size)
        .offset(page.page * page.size);
    const window = this.#window(built.base, this.#sortColumns(built.stories)).as("w");
    const pageRows = this.#order(this.kysely.selectFrom(window), true, page, "w")
      .selectAll("w")
      .limit(page.size)
      .offset(page.page * page.size)
      .as("p");
    return this.#order(
      this.kysely.selectFrom("stories").innerJoin(pageRows, "p.id", "stories.id"),
      true,
      page,
      "p",
    ).selectAll("stories");
  }

  /** The page query as it runs, for EXPLAIN (tests and docs/search.md). */
  listQuery(filter: SearchFilter, page: { page: number; size: number } & SearchOrder): CompiledQuery {
    const query = this.#page(filter, page);
    if (!query) throw new Error("the filter matches nothing");
    return query.compile();
  }

  async list(filter: SearchFilter, page: { page: number; size: number } & SearchOrder): Promise<SearchListResult> {
    const built = filter.libraryIds.length === 0 ? null : this.#base(filter);
    const query = this.#page(filter, page);
    if (!built || !query) return { rows: [], total: 0, capped: false };
    const counted = built.ranked
      ? // One row more than the window tells whether more match.
        this.kysely
          .selectFrom(this.#window(built.base, [sql.ref("m.story_id").as("id")], this.window + 1).as("w"))
          .select((eb) => eb.fn.countAll<number>().as("count"))
      : built.base.select((eb) => eb.fn.countAll<number>().as("count"));
    const { count } = await counted.executeTakeFirstOrThrow();
    const rows = (await query.execute()) as StoryRow[];
    const total = Number(count);
    return built.ranked && total > this.window
      ? { rows, total: this.window, capped: true }
      : { rows, total, capped: false };
  }

  /** Counts over the stories the search looks at (only the libraries in the filter, which are the readable ones). */
  async facets(filter: SearchFilter): Promise<Facets> {
    const empty: Facets = { type: [], library: [], month: [], author: [], source: [], tag: [] };
    const built = filter.libraryIds.length === 0 ? null : this.#base(filter);
    if (!built) return empty;
    if (built.ranked) return this.#windowFacets(built.base);
    const { base } = built;
    const grouped = async (expression: Expression<unknown>): Promise<FacetValue[]> => {
      const rows = await base
        .select([sql<string>`${expression}`.as("value"), (eb) => eb.fn.countAll<number>().as("count")])
        .groupBy(sql`${expression}`)
        .orderBy(sql`count(*)`, "desc")
        .orderBy(sql`${expression}`)
        .limit(FACET_LIMIT)
        .execute();
      return rows
        .filter((row) => row.value !== null)
        .map((row) => ({ value: String(row.value), count: Number(row.count) }));
    };
    const ids = base.select("stories.id");
    const terms = async (kind: "author" | "source" | "tag"): Promise<FacetValue[]> => {
      const rows = await this.kysely
        .selectFrom("story_terms")
        .select(["value", (eb) => eb.fn.countAll<number>().as("count")])
        .where("kind", "=", kind)
        .where("story_id", "in", ids)
        .groupBy("value")
        .orderBy(sql`count(*)`, "desc")
        .orderBy("value")
        .limit(FACET_LIMIT)
        .execute();
      return rows.map((row) => ({ value: row.value, count: Number(row.count) }));
    };
    return {
      type: await grouped(sql.ref("stories.type")),
      library: await grouped(sql.ref("stories.library_id")),
      month: await grouped(this.index.month()),
      author: await terms("author"),
      source: await terms("source"),
      tag: await terms("tag"),
    };
  }

  /**
   * Facets of a full-text window: the window's rows are read once from the
   * index (at most SEARCH_WINDOW: type, library, month) and counted here, and
   * their authors, sources and tags are counted from story_terms by key,
   * instead of six GROUP BYs that would each find the window again.
   */
  async #windowFacets(base: Base): Promise<Facets> {
    const rows = (await this.#window(base, [
      sql.ref("m.story_id").as("id"),
      sql.ref("m.type").as("type"),
      sql.ref("m.library_id").as("library_id"),
      sql<string>`${this.index.month("m")}`.as("month"),
    ]).execute()) as { id: string; type: string; library_id: string; month: string }[];
    const counters = {
      type: new Map(),
      library: new Map(),
      month: new Map(),
      author: new Map(),
      source: new Map(),
      tag: new Map(),
    } satisfies Record<keyof Facets, Map<string, number>>;
    const count = (counter: Map<string, number>, value: string | null, n = 1) => {
      if (value) counter.set(value, (counter.get(value) ?? 0) + n);
    };
    for (const row of rows) {
      count(counters.type, row.type);
      count(counters.library, row.library_id);
      count(counters.month, row.month);
    }
    const kinds = { author: counters.author, source: counters.source, tag: counters.tag };
    // Chunks keep each statement under SQLite's bound-parameter limit; a story is in one chunk only.
    for (let at = 0; at < rows.length; at += 500) {
      const terms = await this.kysely
        .selectFrom("story_terms")
        .select(["kind", "value", (eb) => eb.fn.countAll<number>().as("count")])
        .where(
          "story_id",
          "in",
          rows.slice(at, at + 500).map((row) => row.id),
        )
        .where("kind", "in", ["author", "source", "tag"])
        .groupBy(["kind", "value"])
        .execute();
      for (const term of terms) count(kinds[term.kind as keyof typeof kinds], term.value, Number(term.count));
    }
    const top = (counter: Map<string, number>): FacetValue[] =>
      [...counter]
        .map(([value, n]) => ({ value, count: n }))
        .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
        .slice(0, FACET_LIMIT);
    return {
      type: top(counters.type),
      library: top(counters.library),
      month: top(counters.month),
      author: top(counters.author),
      source: top(counters.source),
      tag: top(counters.tag),
    };
  }

  /**
   * Rebuilds the whole index from the stories table, in batches; returns how
   * many stories it indexed. Oldest uploads first, so that SQLite's rowids
   * (SearchIndex.recency) follow the upload order again.
   */
  async rebuild(batch = 200): Promise<number> {
    await this.index.clear();
    let after: { id: string; created_at: string } | undefined;
    let count = 0;
    for (;;) {
      let next = this.kysely
        .selectFrom("stories")
        .select(["id", "created_at"])
        .orderBy("created_at")
        .orderBy("id")
        .limit(batch);
      if (after !== undefined) {
        const { id, created_at } = after;
        next = next.where((eb) =>
          eb.or([eb("created_at", ">", created_at), eb.and([eb("created_at", "=", created_at), eb("id", ">", id)])]),
        );
      }
      const rows = await next.execute();
      if (rows.length === 0) return count;
      count += await this.kysely
        .transaction()
        .execute(async (trx) => searchIndexFor(trx, this.adapter).upsertMany(rows.map((row) => row.id)));
      after = rows[rows.length - 1]!;
    }
  }
}
