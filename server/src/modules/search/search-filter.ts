// The stories list's filters and sorts as Kysely queries; the search repository pages, counts and facets them.
import { type Kysely, type SelectExpression, type SelectQueryBuilder, type SqlBool, sql } from "kysely";
import type { Database } from "../../db/schema.js";
import type { SearchFilter, SearchPage } from "./search.schema.js";
import type { SearchIndex, Slice, WindowColumn } from "./search-index.js";
import type { QueryTerm } from "./search-text.js";
import { parseQuery } from "./search-text.js";

function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** A column or an aliased expression of a window's rows. */
// biome-ignore lint/suspicious/noExplicitAny: window columns come from the derived match table `m`, not in Database.
export type Selected = SelectExpression<any, any>;

// biome-ignore lint/suspicious/noExplicitAny: the derived match table `m` is not in Database.
export type Base = SelectQueryBuilder<any, any, object>;

export type SearchOrder = Pick<SearchPage, "sort" | "order">;

/**
 * A filter's full-text terms: none without a full-text query, `null` when
 * the query holds nothing searchable (it matches nothing).
 */
export function fullTextTerms(filter: Pick<SearchFilter, "fulltext">): QueryTerm[] | null {
  if (filter.fulltext === undefined || filter.fulltext.trim() === "") return [];
  const terms = parseQuery(filter.fulltext);
  return terms.length === 0 ? null : terms;
}

/**
 * Filtered stories; `null` when a full-text query holds nothing searchable
 * (matches nothing). With full text the rows come from the index's derived
 * table `m`, which carries the story's filter and window columns
 * (WINDOW_COLUMNS): `stories` is joined only when a filter (or `withStories`,
 * for a sort) needs a column the index does not hold.
 */
export function filteredStories(
  kysely: Kysely<Database>,
  index: SearchIndex,
  filter: SearchFilter,
  withStories = false,
  slice?: Slice,
  tags: readonly string[] = [],
  /** The index's query text, when the caller made it (SearchIndex.matchText of the terms and `tags`). */
  match?: string,
): { base: Base; ranked: boolean; stories: boolean } | null {
  const terms = fullTextTerms(filter);
  if (!terms) return null;
  const ranked = terms.length > 0;
  const stories =
    !ranked ||
    withStories ||
    Boolean(filter.keyword) ||
    filter.halfProduct !== undefined ||
    filter.orientation !== undefined ||
    filter.hasGps !== undefined;
  let base: Base = ranked
    ? kysely.selectFrom(index.matches(match ?? index.matchText(terms, tags), slice).as("m"))
    : kysely.selectFrom("stories");
  if (ranked && stories) base = base.innerJoin("stories", "stories.id", "m.story_id");
  const table = ranked ? "m" : "stories";
  const column = (name: WindowColumn) => sql.ref(`${table}.${name}`);
  const id = sql.ref(ranked ? "m.story_id" : "stories.id");
  base = base.where(column("library_id"), "in", filter.libraryIds);
  if (filter.folderId) base = base.where(column("folder_id"), "=", filter.folderId);
  else if (filter.unfiled) base = base.where(column("folder_id"), "is", null);
  if (filter.types?.length) base = base.where(column("type"), "in", filter.types);
  if (filter.status?.length) base = base.where(column("status"), "in", filter.status);
  if (filter.halfProduct !== undefined) base = base.where("stories.half_product", "=", filter.halfProduct);
  if (filter.createdBy) base = base.where(column("created_by"), "=", filter.createdBy);
  const viewer = filter.viewerId;
  // Others' drafts stay hidden, except half products: work in progress others in the library may see and
  // continue (issue 15), which the half-product list (halfProduct=true) shows to every reader of the library.
  if (filter.halfProduct !== true) {
    base = base.where((eb) => eb.or([eb(column("status"), "<>", "draft"), eb(column("created_by"), "=", viewer)]));
  }
  if (filter.keyword) {
    const pattern = likePattern(filter.keyword);
    base = base.where(
      sql<SqlBool>`(lower(stories.title) like ${pattern} escape '\\' or lower(stories.caption) like ${pattern} escape '\\')`,
    );
  }
  if (filter.capturedFrom) base = base.where(column("captured_at"), ">=", filter.capturedFrom);
  if (filter.capturedTo) base = base.where(column("captured_at"), "<", filter.capturedTo);
  if (filter.uploadedFrom) base = base.where(column("created_at"), ">=", filter.uploadedFrom);
  if (filter.uploadedTo) base = base.where(column("created_at"), "<", filter.uploadedTo);
  for (const [kind, values] of [
    ["author", filter.author],
    ["source", filter.source],
    ["tag", filter.tag],
    ["keyword", filter.keywords],
  ] as const) {
    if (!values?.length) continue;
    const ids = kysely
      .selectFrom("story_terms")
      .select("story_terms.story_id")
      .where("story_terms.kind", "=", kind)
      .where("story_terms.value", "in", values);
    base = base.where(id, "in", ids);
  }
  if (filter.month?.length) {
    const months = filter.month;
    base = base.where((eb) => eb.or(months.map((month) => eb(index.month(table), "=", month))));
  }
  if (filter.orientation === "landscape") base = base.where(sql<SqlBool>`stories.width > stories.height`);
  if (filter.orientation === "portrait") base = base.where(sql<SqlBool>`stories.height > stories.width`);
  if (filter.orientation === "square") base = base.where(sql<SqlBool>`stories.width = stories.height`);
  if (filter.hasGps !== undefined) base = base.where("stories.gps", filter.hasGps ? "is not" : "is", null);
  return { base, ranked, stories };
}

/** Orders by the sort's columns of `table` (`stories`, or a window's rows, which carry the same columns and `rank`). */
export function orderStories(
  base: Base,
  ranked: boolean,
  order: SearchOrder,
  table = "stories",
  reversed = false,
): Base {
  const sort = order.sort ?? (ranked ? "relevance" : "updated");
  // Reversed, every key's direction turns: the exact reverse sequence (a null sorts at the same end either way).
  const turn = (direction: "asc" | "desc") => (reversed ? (direction === "asc" ? "desc" : "asc") : direction);
  const direction = (fallback: "asc" | "desc") => turn(order.order ?? fallback);
  const column = (name: string) => sql.ref(`${table}.${name}`);
  switch (sort) {
    case "relevance":
      // Without a full-text query there is no rank: newest first.
      if (ranked) base = base.orderBy(column("rank"), turn((order.order ?? "desc") === "desc" ? "asc" : "desc"));
      base = base.orderBy(column("created_at"), turn("desc"));
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
  return base.orderBy(column("id"), turn("asc"));
}
