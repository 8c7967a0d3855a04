import { type CompiledQuery, type Expression, type Kysely, type Selectable, sql } from "kysely";
import type { DialectAdapter } from "../../db/dialect/index.js";
import { PreparedListRead, ShapedQueries } from "../../db/prepared-read.js";
import type { Database, StoriesTable } from "../../db/schema.js";
import { LIST_COUNT_CAP, SEARCH_WINDOW, type SearchFilter, type SearchPage, type SearchSort } from "./search.schema.js";
import { type Base, filteredStories, fullTextTerms, orderStories, type Selected } from "./search-filter.js";
import { propertyTag, type SearchIndex, type Slice } from "./search-index.js";
import type { QueryTerm } from "./search-text.js";
import {
  emptyFacets,
  FACET_LIMIT,
  type Facets,
  type FacetValue,
  type WindowNeeds,
  type WindowRow,
  windowFacets,
  windowOrder,
} from "./search-window.js";

/** A row of `stories` as the list reads it (the stories module makes stories of them). */
export type StoryRecord = Selectable<StoriesTable>;

export interface SearchListResult {
  rows: StoryRecord[];
  total: number;
  /** More stories match than the window holds: `total` is the window's size. */
  capped: boolean;
  /** A list without full text matched more than LIST_COUNT_CAP stories: `total` is an estimate above the cap. */
  estimated: boolean;
}

/** Rows of `stories` by id, in no order (a page's stories, StoriesRepository.findMany): compiled once per count. */
export const storyRowsByIds = new PreparedListRead((kysely, ids) =>
  kysely.selectFrom("stories").selectAll().where("id", "in", ids),
);

/** Filter fields that steer the SQL's shape (tested, not bound) or are not in it (the hidden properties: the tags). */
const BY_VALUE = new Set(["orientation", "hiddenProperties"]);

/**
 * A filter as a shape and its string values: the shape names the fields set, each list's length and
 * every other value (the full-text query aside: its match text is a value of the window query);
 * `withValues` gives the filter back with other values in their places (ShapedQueries' placeholders).
 */
function filterShape(filter: SearchFilter): {
  shape: string;
  values: string[];
  withValues: (values: readonly string[]) => SearchFilter;
} {
  const entries = Object.entries(filter)
    .filter(([key, value]) => key !== "fulltext" && value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  const isList = (value: unknown): value is string[] =>
    Array.isArray(value) && value.every((item) => typeof item === "string");
  const parts: string[] = [];
  const values: string[] = [];
  for (const [key, value] of entries) {
    if (BY_VALUE.has(key)) parts.push(`${key}=${JSON.stringify(value)}`);
    else if (typeof value === "string") {
      values.push(value);
      parts.push(`${key}:s`);
    } else if (isList(value)) {
      values.push(...value);
      parts.push(`${key}:${value.length}`);
    } else parts.push(`${key}=${JSON.stringify(value)}`);
  }
  const withValues = (given: readonly string[]): SearchFilter => {
    let next = 0;
    const rebuilt: Record<string, unknown> = { ...filter };
    for (const [key, value] of entries) {
      if (BY_VALUE.has(key)) continue;
      if (typeof value === "string") rebuilt[key] = given[next++];
      else if (isList(value)) rebuilt[key] = value.map(() => given[next++]);
    }
    return rebuilt as SearchFilter;
  };
  return { shape: parts.join(","), values, withValues };
}

/** Estimated matches, in windows, from which a search walks the newest entries (SearchIndex.estimate). */
const WALK_ABOVE = 2;
/** Entries a walk reads at most, in windows (100 000 for the default), before it gathers the older matches. */
const WALK_WINDOWS = 50;

/**
 * Whether a walk over the newest slices suits the filter: not when a filter
 * picks few stories by itself (a folder, a creator, a catalogue term, a title
 * substring) or ends the uploads in the past, where the walk would read
 * through every newer slice to find them; those gather the matches.
 */
function walkable(filter: SearchFilter): boolean {
  return (
    !filter.folderId &&
    !filter.createdBy &&
    !filter.keyword &&
    !filter.uploadedTo &&
    !filter.author?.length &&
    !filter.source?.length &&
    !filter.tag?.length &&
    !filter.keywords?.length
  );
}

/** The stories list with full-text search, filters, sorts and facets. */
export class SearchRepository {
  constructor(
    private readonly kysely: Kysely<Database>,
    private readonly adapter: DialectAdapter,
    readonly index: SearchIndex,
    private readonly window = SEARCH_WINDOW,
    private readonly countCap = LIST_COUNT_CAP,
  ) {}

  /** Window queries of searches without a slice (a selective term's), compiled once per shape of the filter. */
  readonly #windows = new ShapedQueries();

  /** The filtered stories (filteredStories) over this repository's database and index. */
  #base(filter: SearchFilter, withStories?: boolean, slice?: Slice, tags?: readonly string[], match?: string) {
    return filteredStories(this.kysely, this.index, filter, withStories, slice, tags, match);
  }

  /**
   * The window of a full-text search: the filtered matches, newest first
   * (SearchIndex.recency), at most `limit` of them, with `columns` of each.
   */
  #window(base: Base, columns: Selected[], limit = this.window): Base {
    let ordered = base.select(columns);
    for (const expression of this.index.recency()) ordered = ordered.orderBy(expression, "desc");
    return ordered.limit(limit);
  }

  /** The columns a window's rows are sorted by (orderStories): from the index, and from `stories` when joined. */
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
  #page(filter: SearchFilter, page: SearchPage, tags: readonly string[] = []): Base | null {
    // Sorts by a column the index does not copy read it from `stories` for the window's rows.
    const needsStories = page.sort === "updated" || page.sort === "title" || page.sort === "size";
    const built = filter.libraryIds.length === 0 ? null : this.#base(filter, needsStories, undefined, tags);
    if (!built) return null;
    if (!built.ranked)
      return orderStories(built.base, false, page)
        .selectAll("stories")
        .limit(page.size)
        .offset(page.page * page.size);
    const window = this.#window(built.base, this.#sortColumns(built.stories)).as("w");
    const pageRows = orderStories(this.kysely.selectFrom(window), true, page, "w")
      .selectAll("w")
      .limit(page.size)
      .offset(page.page * page.size)
      .as("p");
    return orderStories(
      this.kysely.selectFrom("stories").innerJoin(pageRows, "p.id", "stories.id"),
      true,
      page,
      "p",
    ).selectAll("stories");
  }

  /** The window query of a full-text search as it runs, for EXPLAIN (tests and docs/search.md). */
  windowQuery(filter: SearchFilter, sort?: SearchSort, slice?: Slice): CompiledQuery {
    const stories = sort === "updated" || sort === "size";
    return this.#windowQuery(
      filter,
      { stories, rank: true, facets: true, captured: sort === "captured" },
      slice,
    ).compile();
  }

  /** The page query of lists without full text and of full-text searches by title, for EXPLAIN. */
  listQuery(filter: SearchFilter, page: SearchPage): CompiledQuery {
    const query = this.#page(filter, page);
    if (!query) throw new Error("the filter matches nothing");
    return query.compile();
  }

  /**
   * The total of a list without a full-text query, compiled (the plan test and the count bench read it):
   * counted up to the cap (`bounded`, what a page within the cap runs), or exactly.
   */
  countQuery(filter: SearchFilter, bounded = true): CompiledQuery {
    const built = this.#base(filter);
    if (!built || built.ranked) throw new Error("only a list without a full-text query is counted in SQL");
    return (bounded ? this.#boundedCount(built.base) : this.#count(built.base)).compile();
  }

  #count(base: Base) {
    return base.select((eb) => eb.fn.countAll<number>().as("count"));
  }

  /** Counts at most countCap + 1 of the rows: more than the cap is all it tells. */
  #boundedCount(base: Base) {
    return this.kysely
      .selectFrom(
        base
          .select(sql<number>`1`.as("one"))
          .limit(this.countCap + 1)
          .as("c"),
      )
      .select((eb) => eb.fn.countAll<number>().as("count"));
  }

  /**
   * The total of a list without full text. Counted up to the cap when the page ends within it: above
   * the cap the index's estimate (SearchIndex.estimateList) answers instead, flagged; an estimate that
   * is missing or not above the cap, which the count has passed, is not believed: then it counts exactly. A page beyond the cap is counted exactly (reading its
   * OFFSET costs as much), which also lets a page in the second half be read from the end.
   */
  async #total(filter: SearchFilter, base: Base, page: SearchPage): Promise<{ total: number; estimated: boolean }> {
    if ((page.page + 1) * page.size > this.countCap) {
      const { count } = await this.#count(base).executeTakeFirstOrThrow();
      return { total: Number(count), estimated: false };
    }
    const { count } = await this.#boundedCount(base).executeTakeFirstOrThrow();
    if (Number(count) <= this.countCap) return { total: Number(count), estimated: false };
    const estimate = await this.index.estimateList?.(
      this.kysely,
      base.select("stories.id").compile(),
      filter.libraryIds.length,
    );
    if (estimate === null || estimate === undefined || estimate <= this.countCap) {
      // No statistics, or ones that know less than the count just did (SQLite's sampled sqlite_stat1 can
      // say 948 a library of 705 038): the exact count, as before the cap, rather than a wrong "about".
      const { count: exact } = await this.#count(base).executeTakeFirstOrThrow();
      return { total: Number(exact), estimated: false };
    }
    return { total: Math.round(estimate), estimated: true };
  }

  /** The total a page of a list without full text answers (#total), alone: the count bench times it. */
  async total(filter: SearchFilter, page: SearchPage): Promise<{ total: number; estimated: boolean }> {
    const built = this.#base(filter);
    if (!built || built.ranked) throw new Error("only a list without a full-text query is counted in SQL");
    return this.#total(filter, built.base, page);
  }

  async list(filter: SearchFilter, page: SearchPage): Promise<SearchListResult> {
    const { rows, total, capped, estimated } = await this.search(filter, page, false);
    return { rows, total, capped, estimated };
  }

  /** Counts over the stories the search looks at (only the libraries in the filter, which are the readable ones). */
  async facets(filter: SearchFilter): Promise<Facets> {
    const built = filter.libraryIds.length === 0 ? null : this.#base(filter);
    if (!built) return emptyFacets();
    if (built.ranked) return (await this.search(filter, { page: 0, size: 0 }, true)).facets!;
    return this.#tableFacets(built.base);
  }

  /**
   * The page, the total and (with `facets`) the facets of a search. A
   * full-text search finds its window once (#windowRows: the narrow rows of
   * at most SEARCH_WINDOW + 1 matches) and derives all three from it; only
   * the page's stories are then read whole. Other lists count and page in SQL.
   */
  async search(
    filter: SearchFilter,
    page: SearchPage,
    facets: boolean,
  ): Promise<SearchListResult & { facets?: Facets }> {
    const terms = filter.libraryIds.length === 0 ? null : fullTextTerms(filter);
    if (!terms)
      return { rows: [], total: 0, capped: false, estimated: false, ...(facets ? { facets: emptyFacets() } : {}) };
    if (terms.length === 0) {
      // Without full text the filtered stories are counted and paged in SQL. (A full-text search builds its own
      // queries below: building this one too was ~1.5 % of a search's CPU, thrown away.)
      const built = this.#base(filter)!;
      const { total, estimated } = await this.#total(filter, built.base, page);
      const offset = page.page * page.size;
      let rows: StoryRecord[];
      if (!estimated && offset > total / 2 && offset < total) {
        // A page in the second half is read from the end, reversed: its OFFSET stays small (the last page of a
        // million stories was an OFFSET of 999 900 rows, seconds on either dialect).
        const size = Math.min(page.size, total - offset);
        rows = (
          (await orderStories(built.base, false, page, "stories", true)
            .selectAll("stories")
            .limit(size)
            .offset(total - offset - size)
            .execute()) as StoryRecord[]
        ).reverse();
      } else rows = (await this.#page(filter, page)!.execute()) as StoryRecord[];
      const result = { rows, total, capped: false, estimated };
      return facets ? { ...result, facets: await this.#tableFacets(built.base) } : result;
    }
    const sort = page.sort ?? "relevance";
    const tags = await this.#tags(filter);
    const window = await this.#windowRows(
      filter,
      terms,
      {
        stories: sort === "updated" || sort === "size",
        rank: sort === "relevance",
        facets,
        captured: sort === "captured",
      },
      tags,
    );
    const capped = window.length > this.window;
    if (capped) window.length = this.window;
    let rows: StoryRecord[];
    if (sort === "title") {
      // Titles order by the database's collation, which only the database knows.
      rows = (await this.#page(filter, page, tags)!.execute()) as StoryRecord[];
    } else {
      const ids = [...window]
        .sort(windowOrder(sort, page.order, this.adapter.name === "postgres"))
        .slice(page.page * page.size, (page.page + 1) * page.size)
        .map((row) => row.id);
      rows = await this.#stories(ids);
    }
    const result = { rows, total: window.length, capped, estimated: false };
    return facets ? { ...result, facets: windowFacets(window) } : result;
  }

  /**
   * The tags (propertyTag) of the restricted properties the searcher may see: a full-text term matches
   * a restricted property's text only through its tag (docs/property-access.md).
   */
  async #tags(filter: SearchFilter): Promise<string[]> {
    if (!filter.hiddenProperties) return [];
    const hidden = new Set(filter.hiddenProperties);
    const restricted = await this.index.restrictedProperties();
    return restricted.filter((property) => !hidden.has(property)).map(propertyTag);
  }

  /** The stories of these ids, whole, in this order. */
  async #stories(ids: string[]): Promise<StoryRecord[]> {
    if (ids.length === 0) return [];
    const found = await storyRowsByIds.execute(this.kysely, this.adapter, ids);
    const byId = new Map(found.map((row) => [row.id, row]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /**
   * The window of a full-text search as narrow rows: every column a page's
   * sort (but the title) and the facets need, newest first, one more row than
   * the window when more match.
   */
  async #windowRows(
    filter: SearchFilter,
    terms: QueryTerm[],
    needs: WindowNeeds,
    tags: readonly string[],
  ): Promise<WindowRow[]> {
    const gather = async (slice?: Slice, limit?: number) => {
      const query =
        slice || limit !== undefined
          ? this.#windowQuery(filter, needs, slice, limit, tags).compile()
          : this.#preparedWindow(filter, terms, needs, tags);
      return (await this.kysely.executeQuery<WindowRow>(query)).rows;
    };
    const { estimate, walkEnd } = this.index;
    if (!estimate || !walkEnd || !walkable(filter)) return gather();
    // A term with few matches: gathering them all (the GIN index) is cheapest.
    const matching = await estimate.call(this.index, terms);
    if (matching === null || matching < WALK_ABOVE * this.window) return gather();
    // A common one: walk the newest entries until the window is full, or gather what is older.
    const type = filter.types?.length === 1 ? filter.types[0] : undefined;
    const walked = await gather({ newest: WALK_WINDOWS * this.window, type });
    if (walked.length > this.window) return walked;
    const end = await walkEnd.call(this.index, WALK_WINDOWS * this.window, type);
    if (!end) return walked;
    return [...walked, ...(await gather({ olderThan: end }, this.window + 1 - walked.length))];
  }

  /** The window query of the whole index (no slice), built and compiled once per shape of the filter and needs. */
  #preparedWindow(filter: SearchFilter, terms: QueryTerm[], needs: WindowNeeds, tags: readonly string[]) {
    const { shape, values, withValues } = filterShape(filter);
    const match = this.index.matchText(terms, tags);
    const needed = `${needs.stories},${needs.rank},${needs.facets},${needs.captured ?? false}`;
    return this.#windows.compile(`${needed}|${shape}`, [...values, match], (given) =>
      this.#windowQuery(withValues(given), needs, undefined, undefined, tags, given[given.length - 1]).compile(),
    );
  }

  #windowQuery(
    filter: SearchFilter,
    needs: WindowNeeds,
    slice?: Slice,
    limit = this.window + 1,
    tags: readonly string[] = [],
    match?: string,
  ): Base {
    const built = this.#base(filter, needs.stories, slice, tags, match);
    if (!built?.ranked) throw new Error("a window needs a full-text query");
    const columns: Selected[] = [
      sql.ref("m.story_id").as("id"),
      // Columns left out are not computed (the rank) or read (the facets' ones) at all.
      ...(needs.rank ? [sql<number>`m.rank`.as("rank")] : []),
      sql.ref("m.created_at").as("created_at"),
      ...(needs.captured ? [sql.ref("m.captured_at").as("captured_at")] : []),
      ...(needs.facets
        ? [
            sql.ref("m.type").as("type"),
            sql.ref("m.library_id").as("library_id"),
            sql<string>`${this.index.month("m")}`.as("month"),
            sql.ref("m.facet_terms").as("facet_terms"),
          ]
        : []),
      ...(needs.stories ? ["stories.updated_at", "stories.size"] : []),
    ];
    return this.#window(built.base, columns, limit);
  }

  /** Facets by GROUP BY over the filtered stories (lists without full text). */
  async #tableFacets(base: Base): Promise<Facets> {
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
}
