import { describe, expect, it } from "vitest";
import type { FolderNode } from "../../api/folders";
import { type CatalogueNode, catalogueTree, moveOf } from "./folder-tree";

const folder = (id: string, parentId: string | null, children: FolderNode[] = []): FolderNode => ({
  id,
  libraryId: "product",
  parentId,
  name: id,
  sort: 0,
  createdAt: "",
  updatedAt: "",
  children,
});

const tree = catalogueTree(
  [
    { id: "product", name: "成品库" },
    { id: "material", name: "素材库" },
  ],
  (id) => (id === "product" ? [folder("a", null, [folder("a1", "a"), folder("a2", "a")]), folder("b", null)] : []),
);
const node = (key: string): CatalogueNode => {
  const all = (nodes: CatalogueNode[]): CatalogueNode[] => nodes.flatMap((n) => [n, ...all(n.children)]);
  return all(tree).find((candidate) => candidate.key === key)!;
};

describe("the folder catalogue's drops", () => {
  it("puts a folder into another, first among its children", () => {
    expect(moveOf(tree, node("b"), node("a"), { dropToGap: false, before: false })).toEqual({
      libraryId: "product",
      folderId: "b",
      parentId: "a",
      order: ["b", "a1", "a2"],
    });
  });

  it("puts a folder beside another, before or after it", () => {
    expect(moveOf(tree, node("b"), node("a2"), { dropToGap: true, before: true })).toMatchObject({
      parentId: "a",
      order: ["a1", "b", "a2"],
    });
    expect(moveOf(tree, node("a1"), node("b"), { dropToGap: true, before: false })).toMatchObject({
      parentId: null,
      order: ["a", "b", "a1"],
    });
  });

  it("moves a folder to its library's root when dropped on the library", () => {
    expect(moveOf(tree, node("a1"), node("library:product"), { dropToGap: false, before: false })).toMatchObject({
      parentId: null,
      order: ["a1", "a", "b"],
    });
  });

  it("moves a folder to the top level when dropped beside the library's node (antd's drop on its upper half)", () => {
    for (const before of [true, false]) {
      expect(moveOf(tree, node("a2"), node("library:product"), { dropToGap: true, before })).toEqual({
        libraryId: "product",
        folderId: "a2",
        parentId: null,
        order: ["a2", "a", "b"],
      });
    }
  });

  it("never moves a library, nor a folder into another library", () => {
    expect(moveOf(tree, node("library:product"), node("b"), { dropToGap: false, before: false })).toBeNull();
    expect(moveOf(tree, node("a"), node("library:material"), { dropToGap: false, before: false })).toBeNull();
  });
});
