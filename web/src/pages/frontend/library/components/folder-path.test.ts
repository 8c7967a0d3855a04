import { describe, expect, it } from "vitest";
import type { FolderNode } from "../../../../api/folders";
import { folderPath, toTreeData } from "./folder-path";

const node = (id: string, children: FolderNode[] = []): FolderNode => ({
  id,
  libraryId: "product",
  parentId: null,
  name: `name-${id}`,
  sort: 0,
  createdAt: "",
  updatedAt: "",
  children,
});

describe("folder breadcrumb", () => {
  const tree = [node("a", [node("b", [node("c")])]), node("d")];
  it("finds the path from the root to a folder", () => {
    expect(folderPath(tree, "c").map((n) => n.id)).toEqual(["a", "b", "c"]);
    expect(folderPath(tree, "d").map((n) => n.id)).toEqual(["d"]);
  });
  it("is empty for the library root and unknown folders", () => {
    expect(folderPath(tree, undefined)).toEqual([]);
    expect(folderPath(tree, "zzz")).toEqual([]);
  });
  it("turns the tree into the Tree component's data", () => {
    expect(toTreeData(tree)[0]?.children[0]?.children[0]).toEqual({ key: "c", title: "name-c", children: [] });
  });
});
