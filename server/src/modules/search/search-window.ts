import type { z } from "zod";
import type { facetsSchema, SearchSort } from "./search.schema.js";

/**
 * What a full-text search derives from its window's rows in memory: the
 * page's order (windowOrder) and the facets (windowFacets).
 */

export type Facets = z.output<typeof facetsSchema>;
export type FacetValue = Facets["type"][number];

/** Values listed per facet (the most frequent first). */
export const FACET_LIMIT = 50;

/** What a window's rows carry besides the id and dates: the sort's columns of `stories`, the rank, the facets' columns. */
export interface WindowNeeds {
  stories: boolean;
  rank: boolean;
  facets: boolean;
  /** The capture date (the `captured` sort); other sorts leave it out, one timestamp fewer a row. */
  captured?: boolean;
}

/** A row of a full-text window (#windowRows); the optional columns as WindowNeeds asks. */
export interface WindowRow {
  id: string;
  rank?: number;
  created_at: string;
  captured_at?: string | null;
  type?: string;
  library_id?: string;
  month?: string;
  /** JSON `[kind, value]` pairs of its authors, sources and tags (migration 0014). */
  facet_terms?: string | null;
  updated_at?: string;
  size?: number | null;
}

export const emptyFacets = (): Facets => ({ type: [], library: [], month: [], author: [], source: [], tag: [] });

/**
 * The order of a window's rows for a sort (but the title), as #order gives it
 * in SQL: the sort's column, then the id; a null sorts as the dialect does it
 * (smallest on SQLite, largest on PostgreSQL). Timestamps are ISO strings on
 * both dialects (db/dialect), so they compare as strings.
 */
export function windowOrder(
  sort: Exclude<SearchSort, "title">,
  order: "asc" | "desc" | undefined,
  nullsLargest: boolean,
): (a: WindowRow, b: WindowRow) => number {
  const compare = (x: string | number | null | undefined, y: string | number | null | undefined): number => {
    if (x === y) return 0;
    if (x === null || x === undefined) return nullsLargest ? 1 : -1;
    if (y === null || y === undefined) return nullsLargest ? -1 : 1;
    return x < y ? -1 : x > y ? 1 : 0;
  };
  const by =
    (pick: (row: WindowRow) => string | number | null | undefined, direction: "asc" | "desc") =>
    (a: WindowRow, b: WindowRow) =>
      direction === "asc" ? compare(pick(a), pick(b)) : compare(pick(b), pick(a));
  const keys: ((a: WindowRow, b: WindowRow) => number)[] = [];
  switch (sort) {
    case "relevance":
      // A lower rank is a better match: "desc" relevance is rank ascending.
      keys.push(by((row) => row.rank, (order ?? "desc") === "desc" ? "asc" : "desc"));
      keys.push(by((row) => row.created_at, "desc"));
      break;
    case "date":
      keys.push(by((row) => row.created_at, order ?? "desc"));
      break;
    case "captured":
      keys.push(by((row) => row.captured_at, order ?? "desc"));
      break;
    case "updated":
      keys.push(by((row) => row.updated_at, order ?? "desc"));
      break;
    case "size":
      keys.push(
        by((row) => (row.size === null || row.size === undefined ? row.size : Number(row.size)), order ?? "desc"),
      );
      break;
  }
  keys.push(by((row) => row.id, "asc"));
  return (a, b) => {
    for (const key of keys) {
      const result = key(a, b);
      if (result !== 0) return result;
    }
    return 0;
  };
}

/**
 * Facets of a full-text window: type, library and month counted from its
 * rows, authors, sources and tags from their copied facet terms, instead of
 * six GROUP BYs that would each find the window again.
 */
export function windowFacets(rows: WindowRow[]): Facets {
  const counters = {
    type: new Map(),
    library: new Map(),
    month: new Map(),
    author: new Map(),
    source: new Map(),
    tag: new Map(),
  } satisfies Record<keyof Facets, Map<string, number>>;
  const count = (counter: Map<string, number>, value: string | null | undefined, times = 1) => {
    if (value) counter.set(value, (counter.get(value) ?? 0) + times);
  };
  const kinds = { author: counters.author, source: counters.source, tag: counters.tag };
  // Stories of one desk share their authors, source and tags: each distinct list is parsed once, with its count.
  const termLists = new Map<string, number>();
  for (const row of rows) {
    count(counters.type, row.type);
    count(counters.library, row.library_id);
    count(counters.month, row.month);
    count(termLists, row.facet_terms);
  }
  for (const [terms, times] of termLists)
    for (const [kind, value] of JSON.parse(terms) as [keyof typeof kinds, string][]) count(kinds[kind], value, times);
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
