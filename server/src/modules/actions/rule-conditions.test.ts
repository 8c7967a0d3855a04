import { describe, expect, it } from "vitest";
import { meetsConditions } from "./rule-conditions.js";

const story = {
  libraryId: "product",
  type: "photo" as const,
  tags: ["Sport", "头条"],
  keywords: ["typhoon"],
  title: "山竹台风登陆",
  caption: "Waves over the sea wall",
  authors: ["王小明", "Li Lei"],
};

describe("rule conditions", () => {
  it("no condition holds for every story", () => {
    expect(meetsConditions({}, story)).toBe(true);
  });

  it("each condition alone: library, type, tag, keyword, author", () => {
    expect(meetsConditions({ libraryIds: ["product", "material"] }, story)).toBe(true);
    expect(meetsConditions({ libraryIds: ["material"] }, story)).toBe(false);
    expect(meetsConditions({ types: ["photo"] }, story)).toBe(true);
    expect(meetsConditions({ types: ["video", "audio"] }, story)).toBe(false);
    expect(meetsConditions({ tags: ["sport"] }, story)).toBe(true);
    expect(meetsConditions({ tags: ["finance"] }, story)).toBe(false);
    expect(meetsConditions({ keyword: "台风" }, story)).toBe(true);
    expect(meetsConditions({ keyword: "SEA WALL" }, story)).toBe(true);
    expect(meetsConditions({ keyword: "TYPHOON" }, story)).toBe(true);
    expect(meetsConditions({ keyword: "earthquake" }, story)).toBe(false);
    expect(meetsConditions({ authors: ["li lei"] }, story)).toBe(true);
    expect(meetsConditions({ authors: ["Han Meimei"] }, story)).toBe(false);
  });

  it("conditions are ANDed", () => {
    expect(meetsConditions({ libraryIds: ["product"], tags: ["头条"], authors: ["王小明"] }, story)).toBe(true);
    expect(meetsConditions({ libraryIds: ["product"], tags: ["头条"], authors: ["nobody"] }, story)).toBe(false);
  });

  it("a tagged event's tags are those the change added", () => {
    expect(meetsConditions({ tags: ["sport"] }, story, ["头条"])).toBe(false);
    expect(meetsConditions({ tags: ["头条"] }, story, ["头条"])).toBe(true);
  });
});
