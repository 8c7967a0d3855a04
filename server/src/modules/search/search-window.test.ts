import { describe, expect, it } from "vitest";
import { type WindowRow, windowFacets } from "./search-window.js";

const row = (id: number, terms: [string, string][] | null, extra: Partial<WindowRow> = {}): WindowRow => ({
  id: String(id),
  created_at: "2026-11-27T10:00:00.000Z",
  captured_at: null,
  type: "photo",
  library_id: "product",
  month: "2026-11",
  facet_terms: terms === null ? null : JSON.stringify(terms),
  ...extra,
});

describe("windowFacets", () => {
  it("counts each term of every row, whether rows share their term lists or not", () => {
    const desk: [string, string][] = [
      ["author", "张三"],
      ["source", "新华社"],
      ["tag", "typhoon"],
    ];
    const rows = [
      row(1, desk),
      row(2, desk),
      row(3, desk, { type: "video", library_id: "material", month: "2026-10" }),
      row(4, [
        ["author", "张三"],
        ["author", "Alice Chen"],
        ["tag", "typhoon"],
      ]),
      row(5, null),
      row(6, []),
    ];
    const facets = windowFacets(rows);
    expect(facets.author).toEqual([
      { value: "张三", count: 4 },
      { value: "Alice Chen", count: 1 },
    ]);
    expect(facets.source).toEqual([{ value: "新华社", count: 3 }]);
    expect(facets.tag).toEqual([{ value: "typhoon", count: 4 }]);
    expect(facets.type).toEqual([
      { value: "photo", count: 5 },
      { value: "video", count: 1 },
    ]);
    expect(facets.library).toEqual([
      { value: "product", count: 5 },
      { value: "material", count: 1 },
    ]);
    expect(facets.month).toEqual([
      { value: "2026-11", count: 5 },
      { value: "2026-10", count: 1 },
    ]);
  });
});
