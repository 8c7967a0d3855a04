import { describe, expect, it } from "vitest";
import { tableQuery } from "./story-table";

describe("story table query", () => {
  it("turns ProTable's 1-based paging and filters into the API query", () => {
    expect(
      tableQuery({ current: 3, pageSize: 20, keyword: "  台风 ", types: ["video"], status: [], libraryId: "product" }),
    ).toEqual({
      page: 2,
      size: 20,
      keyword: "台风",
      types: ["video"],
      libraryId: "product",
    });
    expect(tableQuery({})).toEqual({ page: 0, size: 10 });
  });
});
