import { describe, expect, it } from "vitest";
import { memoryStorage } from "../test-support";
import { emptyTabs, loadTabs, reduceTabs, saveTabs, type TabsState, tabDetail, tabKeyOf } from "./tabs";

const tab = (key: string) => ({ key, title: `title ${key}` });
const state = (keys: string[], activeKey: string): TabsState => ({ tabs: keys.map(tab), activeKey });
const keys = (s: TabsState) => s.tabs.map((t) => t.key);

describe("reduceTabs", () => {
  it("opens a tab once and activates it", () => {
    let s = reduceTabs(emptyTabs, { type: "open", tab: tab("/a") }).state;
    s = reduceTabs(s, { type: "open", tab: tab("/b") }).state;
    s = reduceTabs(s, { type: "open", tab: { key: "/a", title: "renamed" } }).state;
    expect(keys(s)).toEqual(["/a", "/b"]);
    expect(s.activeKey).toBe("/a");
    expect(s.tabs[0]?.title).toBe("renamed");
  });

  it("closing an inactive tab keeps the active one and navigates nowhere", () => {
    const { state: s, effect } = reduceTabs(state(["/a", "/b", "/c"], "/a"), { type: "close", key: "/b", home: "/h" });
    expect(keys(s)).toEqual(["/a", "/c"]);
    expect(s.activeKey).toBe("/a");
    expect(effect).toEqual({});
  });

  it("closing the active tab activates its right neighbour, else its left one", () => {
    const right = reduceTabs(state(["/a", "/b", "/c"], "/b"), { type: "close", key: "/b", home: "/h" });
    expect(right.state.activeKey).toBe("/c");
    expect(right.effect.navigate).toBe("/c");
    const left = reduceTabs(state(["/a", "/b", "/c"], "/c"), { type: "close", key: "/c", home: "/h" });
    expect(left.state.activeKey).toBe("/b");
    expect(left.effect.navigate).toBe("/b");
  });

  it("closing the last tab goes home", () => {
    const { state: s, effect } = reduceTabs(state(["/a"], "/a"), { type: "close", key: "/a", home: "/frontend" });
    expect(s).toEqual(emptyTabs);
    expect(effect.navigate).toBe("/frontend");
  });

  it("close left removes the tabs before the given one", () => {
    const { state: s, effect } = reduceTabs(state(["/a", "/b", "/c"], "/c"), { type: "closeLeft", key: "/b" });
    expect(keys(s)).toEqual(["/b", "/c"]);
    expect(s.activeKey).toBe("/c");
    expect(effect).toEqual({});
  });

  it("close right removes the tabs after the given one and moves to it when the active tab went", () => {
    const { state: s, effect } = reduceTabs(state(["/a", "/b", "/c"], "/c"), { type: "closeRight", key: "/a" });
    expect(keys(s)).toEqual(["/a"]);
    expect(s.activeKey).toBe("/a");
    expect(effect.navigate).toBe("/a");
  });

  it("says 'no tabs on the left' / 'no tabs on the right' when there is nothing to close", () => {
    const start = state(["/a", "/b"], "/a");
    const left = reduceTabs(start, { type: "closeLeft", key: "/a" });
    expect(left.state).toBe(start);
    expect(left.effect.message).toBe("layout.tabs.noLeft");
    const right = reduceTabs(start, { type: "closeRight", key: "/b" });
    expect(right.state).toBe(start);
    expect(right.effect.message).toBe("layout.tabs.noRight");
  });

  it("close all empties the bar and returns to the area's home", () => {
    const { state: s, effect } = reduceTabs(state(["/a", "/b"], "/b"), { type: "closeAll", home: "/backend" });
    expect(s).toEqual(emptyTabs);
    expect(effect.navigate).toBe("/backend");
  });
});

describe("tab persistence", () => {
  it("round-trips per area and ignores garbage", () => {
    const storage = memoryStorage();
    saveTabs("front", state(["/a", "/b"], "/b"), storage);
    expect(loadTabs("front", storage)).toEqual(state(["/a", "/b"], "/b"));
    expect(loadTabs("back", storage)).toEqual(emptyTabs);
    storage.setItem("pro__Multi-Tabs:front", "{not json");
    expect(loadTabs("front", storage)).toEqual(emptyTabs);
  });
});

describe("tabKeyOf", () => {
  it("keeps the query that names the page and drops the viewer and view switch", () => {
    expect(tabKeyOf("/frontend/search", "?fulltext=台风&story=product/abc&view=list")).toBe(
      "/frontend/search?fulltext=%E5%8F%B0%E9%A3%8E",
    );
    expect(tabKeyOf("/upload/favorite", "?story=product/abc")).toBe("/upload/favorite");
    expect(tabKeyOf("/story/list", "")).toBe("/story/list");
  });
});

describe("the search tab", () => {
  it("is reused by a new search, its label showing the query", () => {
    let state = emptyTabs;
    const open = (key: string) => {
      state = reduceTabs(state, { type: "open", tab: { key, title: "menu.search" } }).state;
    };
    open("/frontend/product");
    open("/frontend/search?fulltext=%E5%8F%B0%E9%A3%8E");
    open("/frontend/search?fulltext=flood");
    open("/frontend/search?keyword=rain&types=photo");
    expect(state.tabs.map((tab) => tab.key)).toEqual([
      "/frontend/product",
      "/frontend/search?keyword=rain&types=photo",
    ]);
    expect(state.activeKey).toBe("/frontend/search?keyword=rain&types=photo");
    expect(tabDetail("/frontend/search?fulltext=%E5%8F%B0%E9%A3%8E")).toBe("台风");
    expect(tabDetail("/frontend/search")).toBeNull();
    expect(tabDetail("/frontend/product?fulltext=x")).toBeNull();
  });
});
