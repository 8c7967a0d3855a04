import { describe, expect, it } from "vitest";
import type { Story } from "../../api/stories";
import { rangeToggled, toggled } from "./use-story-selection";

const story = (libraryId: string, storyId: string) => ({ libraryId, storyId }) as Story;

describe("a grid's selection", () => {
  it("adds a story, takes it out on a second toggle, and tells the same id in two libraries apart", () => {
    const one = toggled(new Map(), story("product", "s1"));
    expect([...one.keys()]).toEqual(["product/s1"]);
    const two = toggled(one, story("material", "s1"));
    expect([...two.keys()]).toEqual(["product/s1", "material/s1"]);
    expect([...toggled(two, story("product", "s1")).keys()]).toEqual(["material/s1"]);
    expect([...one.keys()]).toEqual(["product/s1"]);
  });

  it("adds a range without doubling what was picked, and takes a range out", () => {
    const picked = toggled(new Map(), story("product", "s2"));
    const range = [story("product", "s1"), story("product", "s2"), story("product", "s3")];
    const added = rangeToggled(picked, range, true);
    expect([...added.keys()]).toEqual(["product/s2", "product/s1", "product/s3"]);
    expect([...rangeToggled(added, range.slice(0, 2), false).keys()]).toEqual(["product/s3"]);
  });
});
