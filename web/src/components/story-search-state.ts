import {
  FACET_KEYS,
  type FacetKey,
  type Facets,
  type FacetValue,
  STORY_TYPES,
  type StoryQuery,
  type StoryType,
} from "../api/stories";

/**
 * What a story list page shows, as it lives in the URL: the full-text query
 * (`fulltext`, spec section 2), the type filter (`types`, comma-separated, any
 * case, like the video edit dialog's `types=VIDEO`), the facet filters, the
 * view and the story open in the viewer (`story=<libraryId>/<storyId>`).
 */
export interface StorySearchState {
  fulltext: string;
  types: StoryType[];
  filters: Partial<Record<Exclude<FacetKey, "type">, string[]>>;
  view: "grid" | "list";
  story: { libraryId: string; storyId: string } | null;
}

const FILTER_KEYS = FACET_KEYS.filter((key): key is Exclude<FacetKey, "type"> => key !== "type");

function list(value: string | null): string[] {
  if (!value) return [];
  return [
    ...new Set(
      value
        .split(",")
        .map((item) => item.trim())
        .filter(Boolean),
    ),
  ];
}

export function parseStoryRef(value: string | null): { libraryId: string; storyId: string } | null {
  if (!value) return null;
  const slash = value.indexOf("/");
  if (slash <= 0 || slash === value.length - 1) return null;
  return { libraryId: value.slice(0, slash), storyId: value.slice(slash + 1) };
}

const isStoryType = (type: string): type is StoryType => (STORY_TYPES as readonly string[]).includes(type);

/** The known story types of a comma-separated list, in any case (`types=VIDEO`). */
export function storyTypes(value: string | null): StoryType[] {
  return list(value)
    .map((type) => type.toLowerCase())
    .filter(isStoryType);
}

export function parseSearchState(params: URLSearchParams): StorySearchState {
  const filters: StorySearchState["filters"] = {};
  for (const key of FILTER_KEYS) {
    const values = list(params.get(key));
    if (values.length > 0) filters[key] = values;
  }
  return {
    fulltext: (params.get("fulltext") ?? "").trim(),
    types: storyTypes(params.get("types")),
    filters,
    view: params.get("view") === "list" ? "list" : "grid",
    story: parseStoryRef(params.get("story")),
  };
}

/** The URL parameters of a state; parameters this state does not own are kept from `base`. */
export function toSearchParams(state: StorySearchState, base?: URLSearchParams): URLSearchParams {
  const params = new URLSearchParams(base);
  const set = (key: string, value: string) => (value ? params.set(key, value) : params.delete(key));
  set("fulltext", state.fulltext.trim());
  set("types", state.types.join(","));
  for (const key of FILTER_KEYS) set(key, (state.filters[key] ?? []).join(","));
  set("view", state.view === "list" ? "list" : "");
  set("story", state.story ? `${state.story.libraryId}/${state.story.storyId}` : "");
  return params;
}

/** The API query of a state (the library facet narrows to one library when one is chosen; lists comma-separated). */
export function toStoryQuery(state: StorySearchState): StoryQuery {
  const query: StoryQuery = {};
  if (state.fulltext) query.fulltext = state.fulltext;
  if (state.types.length > 0) query.types = state.types;
  const { library, author, source, tag, month } = state.filters;
  if (library?.length === 1) query.libraryId = library[0];
  if (author?.length) query.author = author.join(",");
  if (source?.length) query.source = source.join(",");
  if (tag?.length) query.tag = tag.join(",");
  if (month?.length) query.month = month.join(",");
  return query;
}

/** Toggles a facet value in a state: types for the type facet, the filters otherwise. */
export function toggleFacet(state: StorySearchState, key: FacetKey, value: string): StorySearchState {
  const toggle = (values: string[]) =>
    values.includes(value) ? values.filter((v) => v !== value) : [...values, value];
  if (key === "type") return { ...state, types: toggle(state.types).filter(isStoryType), story: null };
  // One library at a time: the API filters by one library id.
  const current = state.filters[key] ?? [];
  const next = key === "library" ? (current.includes(value) ? [] : [value]) : toggle(current);
  const filters = { ...state.filters };
  if (next.length > 0) filters[key] = next;
  else delete filters[key];
  return { ...state, filters, story: null };
}

export function isFacetSelected(state: StorySearchState, key: FacetKey, value: string): boolean {
  const values: readonly string[] = key === "type" ? state.types : (state.filters[key] ?? []);
  return values.includes(value);
}

/**
 * The facet groups to show: only those the server sent with at least one
 * value, values with a count, most frequent first (then by value), at most
 * `limit` per group — but a selected value always stays visible, even when the
 * server no longer counts it, so it can be unticked.
 */
export function facetGroups(
  facets: Facets | undefined,
  state: StorySearchState,
  limit = 10,
): { key: FacetKey; values: (FacetValue & { selected: boolean })[] }[] {
  if (!facets) return [];
  const groups: { key: FacetKey; values: (FacetValue & { selected: boolean })[] }[] = [];
  for (const key of FACET_KEYS) {
    const raw = facets[key];
    if (!Array.isArray(raw)) continue;
    const counted = raw
      .filter((item) => item && typeof item.value === "string" && item.value !== "" && item.count > 0)
      .sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
    const shown = counted
      .slice(0, limit)
      .map((item) => ({ ...item, selected: isFacetSelected(state, key, item.value) }));
    const selected: readonly string[] = key === "type" ? state.types : (state.filters[key] ?? []);
    for (const value of selected) {
      if (!shown.some((item) => item.value === value)) {
        const count = counted.find((item) => item.value === value)?.count ?? 0;
        shown.push({ value, count, selected: true });
      }
    }
    if (shown.length > 0) groups.push({ key, values: shown });
  }
  return groups;
}

export const EMPTY_SEARCH_STATE: StorySearchState = { fulltext: "", types: [], filters: {}, view: "grid", story: null };
