import { describe, expect, it } from "vitest";
import { zipBatches } from "./story-actions";

describe("zip batches", () => {
  it("groups by library, drops repeated ids and splits at the route's limit", () => {
    const refs = [
      { libraryId: "product", storyId: "a" },
      { libraryId: "material", storyId: "m" },
      { libraryId: "product", storyId: "b" },
      { libraryId: "product", storyId: "a" },
      { libraryId: "product", storyId: "c" },
    ];
    expect(zipBatches(refs, 2)).toEqual([
      { libraryId: "product", storyIds: ["a", "b"] },
      { libraryId: "product", storyIds: ["c"] },
      { libraryId: "material", storyIds: ["m"] },
    ]);
    expect(zipBatches([], 100)).toEqual([]);
  });
});
