import { type CompiledQuery, type Expression, type Kysely, type SelectQueryBuilder, type SqlBool, sql } from "kysely";
import type { DialectAdapter } from "../../db/dialect/index.js";
import type { Database, StoryStatus, StoryType } from "../../db/schema.js";
import type { StoryRow } from "../stories/story-types.js";
import { type SearchIndex, searchIndexFor } from "./search-index.js";
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
        if (ranked) base = base.orderBy(sql`m.rank`, direction("desc") === "desc" ? "asc" : "desc");
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

  /** The page query as it runs, for EXPLAIN (tests and docs/search.md). */
  listQuery(filter: SearchFilter, page: { page: number; size: number } & SearchOrder): CompiledQuery {
    const built = this.#base(filter);
    if (!built) throw new Error("the filter matches nothing");
    return this.#order(built.base, built.ranked, page)
      .selectAll("stories")
      .limit(page.size)
      .offset(page.page * page.size)
      .compile();
  }

  async list(
    filter: SearchFilter,
    page: { page: number; size: number } & SearchOrder,
  ): Promise<{ rows: StoryRow[]; total: number }> {
    const built = filter.libraryIds.length === 0 ? null : this.#base(filter);
    if (!built) return { rows: [], total: 0 };
    const { count } = await built.base.select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow();
    const rows = await this.#order(built.base, built.ranked, page)
      .selectAll("stories")
      .limit(page.size)
      .offset(page.page * page.size)
      .execute();
    return { rows: rows as StoryRow[], total: Number(count) };
  }

  /** Counts over the filtered stories (only the libraries in the filter, which are the readable ones). */
  async facets(filter: SearchFilter): Promise<Facets> {
    const empty: Facets = { type: [], library: [], month: [], author: [], source: [], tag: [] };
    const built = filter.libraryIds.length === 0 ? null : this.#base(filter);
    if (!built) return empty;
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
