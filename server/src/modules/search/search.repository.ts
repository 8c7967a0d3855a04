import { type CompiledQuery, type Expression, type Kysely, type SelectQueryBuilder, type SqlBool, sql } from "kysely";
import type { DialectAdapter } from "../../db/dialect/index.js";
import type { Database, StoryStatus, StoryType } from "../../db/schema.js";
import type { StoryRow } from "../stories/story-types.js";
import { type SearchIndex, searchIndexFor, termValue } from "./search-index.js";
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

  /** Filtered stories; `null` when a full-text query holds nothing searchable (matches nothing). */
  #base(filter: SearchFilter): { base: Base; ranked: boolean } | null {
    let base: Base = this.kysely.selectFrom("stories").where("stories.library_id", "in", filter.libraryIds);
    let ranked = false;
    if (filter.fulltext !== undefined && filter.fulltext.trim() !== "") {
      const terms = parseQuery(filter.fulltext);
      if (terms.length === 0) return null;
      base = base.innerJoin(this.index.matches(terms).as("m"), "m.story_id", "stories.id");
      ranked = true;
    }
    if (filter.folderId) base = base.where("stories.folder_id", "=", filter.folderId);
    if (filter.types?.length) base = base.where("stories.type", "in", filter.types);
    if (filter.statuses?.length) base = base.where("stories.status", "in", filter.statuses);
    if (filter.halfProduct !== undefined) base = base.where("stories.half_product", "=", filter.halfProduct);
    if (filter.createdBy) base = base.where("stories.created_by", "=", filter.createdBy);
    const viewer = filter.viewerId;
    base = base.where((eb) => eb.or([eb("stories.status", "<>", "draft"), eb("stories.created_by", "=", viewer)]));
    if (filter.like) {
      const pattern = likePattern(filter.like);
      base = base.where(
        sql<SqlBool>`(lower(stories.title) like ${pattern} escape '\\' or lower(stories.caption) like ${pattern} escape '\\')`,
      );
    }
    if (filter.capturedFrom) base = base.where("stories.captured_at", ">=", filter.capturedFrom);
    if (filter.capturedTo) base = base.where("stories.captured_at", "<", filter.capturedTo);
    if (filter.uploadedFrom) base = base.where("stories.created_at", ">=", filter.uploadedFrom);
    if (filter.uploadedTo) base = base.where("stories.created_at", "<", filter.uploadedTo);
    for (const kind of ["author", "source", "tag", "keyword"] as const) {
      const values = filter[kind];
      if (!values?.length) continue;
      const ids = this.kysely
        .selectFrom("story_terms")
        .select("story_terms.story_id")
        .where("story_terms.kind", "=", kind)
        .where("story_terms.value", "in", values);
      base = base.where("stories.id", "in", ids);
    }
    if (filter.months?.length) {
      const months = filter.months;
      base = base.where((eb) => eb.or(months.map((month) => eb(this.index.month(), "=", month))));
    }
    if (filter.orientation === "landscape") base = base.where(sql<SqlBool>`stories.width > stories.height`);
    if (filter.orientation === "portrait") base = base.where(sql<SqlBool>`stories.height > stories.width`);
    if (filter.orientation === "square") base = base.where(sql<SqlBool>`stories.width = stories.height`);
    if (filter.hasGps !== undefined) base = base.where("stories.gps", filter.hasGps ? "is not" : "is", null);
    return { base, ranked };
  }

  #order(base: Base, ranked: boolean, order: SearchOrder): Base {
    const sort = order.sort ?? (ranked ? "relevance" : "updated");
    const direction = (fallback: "asc" | "desc") => order.order ?? fallback;
    switch (sort) {
      case "relevance":
        // Without a full-text query there is no rank: newest first.
        if (ranked) base = base.orderBy(sql`w.rank`, direction("desc") === "desc" ? "asc" : "desc");
        base = base.orderBy("stories.created_at", "desc");
        break;
      case "date":
        base = base.orderBy("stories.created_at", direction("desc"));
        break;
      case "captured":
        base = base.orderBy("stories.captured_at", direction("desc"));
        break;
      case "updated":
        base = base.orderBy("stories.updated_at", direction("desc"));
        break;
      case "title":
        base = base.orderBy("stories.title", direction("asc"));
        break;
      case "size":
        base = base.orderBy("stories.size", direction("desc"));
        break;
    }
    return base.orderBy("stories.id");
  }

  /**
   * The stories a search looks at. Without full text: every filtered story.
   * With it: the window, the newest matches first — the stories with their
   * rank, read as a derived table `w(story_id, rank)` joined to `stories`.
   */
  #scope(filter: SearchFilter): { base: Base; ranked: boolean } | null {
    const built = filter.libraryIds.length === 0 ? null : this.#base(filter);
    if (!built?.ranked) return built;
    const window = built.base
      .select(["stories.id as story_id", sql<number>`m.rank`.as("rank")])
      .orderBy(this.index.recency(), "desc")
      .limit(this.window);
    return {
      base: this.kysely.selectFrom("stories").innerJoin(window.as("w"), "w.story_id", "stories.id"),
      ranked: true,
    };
  }

  #page(filter: SearchFilter, page: { page: number; size: number } & SearchOrder): Base | null {
    const scope = this.#scope(filter);
    if (!scope) return null;
    return this.#order(scope.base, scope.ranked, page)
      .selectAll("stories")
      .limit(page.size)
      .offset(page.page * page.size);
  }

  /** The page query as it runs, for EXPLAIN (tests and docs/search.md). */
  listQuery(filter: SearchFilter, page: { page: number; size: number } & SearchOrder): CompiledQuery {
    const query = this.#page(filter, page);
    if (!query) throw new Error("the filter matches nothing");
    return query.compile();
  }

  async list(filter: SearchFilter, page: { page: number; size: number } & SearchOrder): Promise<SearchListResult> {
    const scope = this.#scope(filter);
    const query = this.#page(filter, page);
    if (!scope || !query) return { rows: [], total: 0, capped: false };
    const { count } = await scope.base.select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow();
    const rows = (await query.execute()) as StoryRow[];
    const total = Number(count);
    // A full window may hold every match exactly; one more row tells.
    const capped = scope.ranked && total >= this.window && (await this.#beyondWindow(filter));
    return { rows, total, capped };
  }

  async #beyondWindow(filter: SearchFilter): Promise<boolean> {
    const built = this.#base(filter);
    if (!built) return false;
    const beyond = await built.base
      .select(sql<number>`1`.as("one"))
      .orderBy(this.index.recency(), "desc")
      .offset(this.window)
      .limit(1)
      .execute();
    return beyond.length > 0;
  }

  /** Counts over the stories the search looks at (only the libraries in the filter, which are the readable ones). */
  async facets(filter: SearchFilter): Promise<Facets> {
    const empty: Facets = { type: [], library: [], month: [], author: [], source: [], tag: [] };
    const scope = this.#scope(filter);
    if (!scope) return empty;
    if (scope.ranked) return this.#windowFacets(scope.base);
    const { base } = scope;
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
   * Facets of a full-text window in one pass: the window's rows are read once
   * (at most SEARCH_WINDOW) and counted here, instead of six GROUP BYs that
   * would each find the window again. Values as story_terms holds them.
   */
  async #windowFacets(base: Base): Promise<Facets> {
    const rows = await base
      .select([
        "stories.type",
        "stories.library_id",
        sql<string>`${this.index.month()}`.as("month"),
        "stories.authors",
        "stories.source",
        "stories.tags",
      ])
      .execute();
    const counters = {
      type: new Map(),
      library: new Map(),
      month: new Map(),
      author: new Map(),
      source: new Map(),
      tag: new Map(),
    } satisfies Record<keyof Facets, Map<string, number>>;
    const count = (counter: Map<string, number>, values: Iterable<string | null | undefined>) => {
      for (const value of new Set(values)) if (value) counter.set(value, (counter.get(value) ?? 0) + 1);
    };
    const list = (value: unknown) =>
      value === null || value === undefined ? [] : this.adapter.readJson<string[]>(value);
    for (const row of rows) {
      count(counters.type, [row.type]);
      count(counters.library, [row.library_id]);
      count(counters.month, [row.month]);
      count(counters.author, list(row.authors).map(termValue));
      count(counters.source, [termValue(row.source)]);
      count(counters.tag, list(row.tags).map(termValue));
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

  /** Rebuilds the whole index from the stories table, in batches; returns how many stories it indexed. */
  async rebuild(batch = 200): Promise<number> {
    await this.index.clear();
    let after: string | undefined;
    let count = 0;
    for (;;) {
      let next = this.kysely.selectFrom("stories").select("id").orderBy("id").limit(batch);
      if (after !== undefined) next = next.where("id", ">", after);
      const ids = await next.execute();
      if (ids.length === 0) return count;
      count += await this.kysely
        .transaction()
        .execute(async (trx) => searchIndexFor(trx, this.adapter).upsertMany(ids.map((row) => row.id)));
      after = ids[ids.length - 1]!.id;
    }
  }
}
