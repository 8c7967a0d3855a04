import { describe, expect, it } from "vitest";
import type { Category } from "../../../../api/catalogue";
import { categoryTree, defaultFromField, defaultToField, orderOrZero, textOrNull } from "./form-values";

const category = (id: string, parentId: string | null, name = id): Category => ({
  id,
  name,
  parentId,
  parentName: null,
  description: null,
  sortOrder: 0,
  childCount: 0,
  createTime: "",
  updateTime: "",
});

describe("catalogue form values", () => {
  it("trims texts and turns blanks into null", () => {
    expect(textOrNull("  台风 ")).toBe("台风");
    expect(textOrNull("   ")).toBeNull();
    expect(textOrNull(undefined)).toBeNull();
    expect(orderOrZero(undefined)).toBe(0);
    expect(orderOrZero(3)).toBe(3);
    expect(orderOrZero(-1)).toBe(0);
  });

  it("builds the parent tree, leaving out the edited category and its subtree", () => {
    const all = [
      category("news", null),
      category("sport", null),
      category("football", "sport"),
      category("cup", "football"),
    ];
    expect(categoryTree(all)).toEqual([
      { title: "news", value: "news", children: [] },
      {
        title: "sport",
        value: "sport",
        children: [{ title: "football", value: "football", children: [{ title: "cup", value: "cup", children: [] }] }],
      },
    ]);
    expect(categoryTree(all, "football")).toEqual([
      { title: "news", value: "news", children: [] },
      { title: "sport", value: "sport", children: [] },
    ]);
  });

  it("converts a default value between its text form and the field of its kind", () => {
    expect(defaultToField("multiselect", "urgent, flash")).toEqual(["urgent", "flash"]);
    expect(defaultFromField("multiselect", ["urgent", "flash"])).toBe("urgent,flash");
    expect(defaultFromField("multiselect", [])).toBeNull();
    expect(defaultToField("switch", "true")).toBe("true");
    expect(defaultFromField("switch", false)).toBe("false");
    expect(defaultToField("text", null)).toBeUndefined();
    expect(defaultFromField("number", " 12 ")).toBe("12");
    expect(defaultFromField("text", "")).toBeNull();
  });
});
