import { describe, expect, it } from "vitest";
import {
  EMPTY_SEARCH_STATE,
  facetGroups,
  parseSearchState,
  parseStoryRef,
  type StorySearchState,
  toggleFacet,
  toSearchParams,
  toStoryQuery,
} from "./story-search-state";

describe("story search state in the URL", () => {
  it("reads the query, types in any case, facet filters, the view and the open story", () => {
    const state = parseSearchState(
      new URLSearchParams("fulltext=%20台风%20&types=VIDEO,photo,bogus&author=A,B,A&view=list&story=product/abc-1"),
    );
    expect(state).toEqual({
      fulltext: "台风",
      types: ["video", "photo"],
      filters: { author: ["A", "B"] },
      view: "list",
      story: { libraryId: "product", storyId: "abc-1" },
    });
  });

  it("defaults to an empty grid", () => {
    expect(parseSearchState(new URLSearchParams(""))).toEqual(EMPTY_SEARCH_STATE);
  });

  it("refuses malformed story references", () => {
    expect(parseStoryRef("product")).toBeNull();
    expect(parseStoryRef("/x")).toBeNull();
    expect(parseStoryRef("product/")).toBeNull();
  });

  it("round-trips through the URL and keeps parameters it does not own", () => {
    const state = parseSearchState(new URLSearchParams("fulltext=press conference&types=audio&tag=会议&month=2026-11"));
    const params = toSearchParams(state, new URLSearchParams("other=1&view=list"));
    expect(params.get("other")).toBe("1");
    expect(params.has("view")).toBe(false);
    expect(parseSearchState(params)).toEqual(state);
  });

  it("drops empty parameters when writing", () => {
    expect(toSearchParams(EMPTY_SEARCH_STATE).toString()).toBe("");
  });

  it("becomes the API query, one library at a time, lists comma-separated", () => {
    const state = parseSearchState(
      new URLSearchParams("fulltext=x&types=photo&library=product&source=新华社&author=甲,乙"),
    );
    expect(toStoryQuery(state)).toEqual({
      fulltext: "x",
      types: ["photo"],
      libraryId: "product",
      source: "新华社",
      author: "甲,乙",
    });
    expect(toStoryQuery(EMPTY_SEARCH_STATE)).toEqual({});
  });
});

describe("facets", () => {
  it("toggles a type, a filter value, and replaces the library; closes the viewer", () => {
    let state: StorySearchState = { ...EMPTY_SEARCH_STATE, story: { libraryId: "a", storyId: "b" } };
    state = toggleFacet(state, "type", "video");
    expect(state.types).toEqual(["video"]);
    expect(state.story).toBeNull();
    state = toggleFacet(state, "tag", "x");
    state = toggleFacet(state, "tag", "y");
    expect(state.filters.tag).toEqual(["x", "y"]);
    state = toggleFacet(state, "tag", "x");
    expect(state.filters.tag).toEqual(["y"]);
    state = toggleFacet(state, "library", "product");
    state = toggleFacet(state, "library", "material");
    expect(state.filters.library).toEqual(["material"]);
    state = toggleFacet(state, "library", "material");
    expect(state.filters.library).toBeUndefined();
    state = toggleFacet(state, "type", "video");
    expect(state.types).toEqual([]);
  });

  it("shows nothing when the server sends no facets", () => {
    expect(facetGroups(undefined, EMPTY_SEARCH_STATE)).toEqual([]);
  });

  it("sorts by count, drops empty values and groups, limits, and keeps selected values", () => {
    const state = parseSearchState(new URLSearchParams("author=Zed"));
    const groups = facetGroups(
      {
        type: [
          { value: "photo", count: 3 },
          { value: "video", count: 9 },
          { value: "audio", count: 0 },
        ],
        author: [
          { value: "B", count: 5 },
          { value: "A", count: 5 },
          { value: "C", count: 1 },
          { value: "", count: 4 },
        ],
        tag: [],
      },
      state,
      2,
    );
    expect(groups.map((group) => group.key)).toEqual(["type", "author"]);
    expect(groups[0]?.values.map((v) => v.value)).toEqual(["video", "photo"]);
    expect(groups[1]?.values).toEqual([
      { value: "A", count: 5, selected: false },
      { value: "B", count: 5, selected: false },
      { value: "Zed", count: 0, selected: true },
    ]);
  });
});
