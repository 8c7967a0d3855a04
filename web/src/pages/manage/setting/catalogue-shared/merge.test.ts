import { describe, expect, it } from "vitest";
import type { ListQuery } from "../../../../api/paging";
import { mergeChoice } from "./merge";

describe("mergeChoice", () => {
  const entries = [
    { id: "a", name: "Flood", department: null },
    { id: "b", name: "Floods", department: "Desk" },
  ];
  const asked: ListQuery[] = [];
  const list = async (query: ListQuery) => {
    asked.push(query);
    return { content: entries, totalElements: entries.length, size: query.size, number: query.page };
  };
  const merged: [string, string][] = [];
  const choice = mergeChoice(
    list,
    async (id, into) => {
      merged.push([id, into]);
      return { mergedInto: into, stories: 3 };
    },
    (entry) => (entry.department ? `${entry.name} (${entry.department})` : entry.name),
  );

  it("offers the other entries of the list, searched by the typed keyword, never the entry itself", async () => {
    expect(await choice.candidates(entries[0]!, " Flo ")).toEqual([{ value: "b", label: "Floods (Desk)" }]);
    expect(asked.at(-1)).toEqual({ page: 0, size: 50, keyword: "Flo" });
    await choice.candidates(entries[1]!, "");
    expect(asked.at(-1)?.keyword).toBeUndefined();
  });

  it("merges the entry into the picked one", async () => {
    expect(await choice.run(entries[0]!, "b")).toEqual({ mergedInto: "b", stories: 3 });
    expect(merged).toEqual([["a", "b"]]);
    expect(choice.label(entries[1]!)).toBe("Floods");
  });
});
