import { describe, expect, it } from "vitest";
import { rowsOf, rulesOf, withAccess } from "./rules";

describe("field-level access rows", () => {
  const defined = [
    { name: "sourceFee", label: "稿费" },
    { name: "sourceFee", label: "Source fee (video)" },
    { name: "location", label: "地点" },
  ];

  it("lists defined properties and those only a rule names, without a rule visible and editable", () => {
    const rows = rowsOf(defined, [
      { property: "sourceFee", visible: false, editable: false },
      { property: "legacy", visible: true, editable: false },
    ]);
    expect(rows).toEqual([
      { property: "legacy", labels: [], visible: true, editable: false },
      { property: "location", labels: ["地点"], visible: true, editable: true },
      { property: "sourceFee", labels: ["稿费", "Source fee (video)"], visible: false, editable: false },
    ]);
  });

  it("hiding makes read-only, making editable makes visible, and only restrictions are saved", () => {
    const [location] = rowsOf([{ name: "location", label: "地点" }], []);
    const hidden = withAccess(location!, { visible: false });
    expect(hidden).toMatchObject({ visible: false, editable: false });
    expect(withAccess(hidden, { editable: true })).toMatchObject({ visible: true, editable: true });
    expect(withAccess(location!, { editable: false })).toMatchObject({ visible: true, editable: false });
    expect(rulesOf([location!, { ...hidden, property: "fee" }])).toEqual([
      { property: "fee", visible: false, editable: false },
    ]);
  });
});
