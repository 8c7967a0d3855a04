import { describe, expect, it } from "vitest";
import type { MenuItem } from "../api/client";
import { menuKeysFor, visibleMenu } from "./nav-menu";

const item = (key: string, path: string, children: MenuItem[] = [], hidden = false): MenuItem => ({
  id: key,
  key,
  path,
  title: `menu.${key}`,
  icon: null,
  component: children.length ? null : key,
  redirect: children[0]?.path ?? null,
  hidden,
  children,
});

const menus = [
  item("search", "/frontend/search"),
  item("upload", "/upload", [item("upload.image", "/upload/image"), item("upload.video", "/upload/video")]),
  item("monitor", "/manage/monitor", [
    item("monitor.storage", "/manage/monitor/storage"),
    item("backend.storage", "/backend/monitor/storage", [], true),
  ]),
  item("frontend", "/frontend"),
];

describe("menuKeysFor", () => {
  it("selects a page's entry and opens the groups above it", () => {
    expect(menuKeysFor("/upload/video", menus)).toEqual({ selected: ["/upload/video"], open: ["/upload"] });
    expect(menuKeysFor("/frontend/search", menus)).toEqual({ selected: ["/frontend/search"], open: [] });
  });

  it("takes the deepest entry whose path is a prefix", () => {
    expect(menuKeysFor("/frontend/product/42", menus)).toEqual({ selected: ["/frontend"], open: [] });
    expect(menuKeysFor("/upload/videos", menus)).toEqual({ selected: ["/upload"], open: ["/upload"] });
  });

  it("gives a hidden page's place to its visible group, opened", () => {
    expect(menuKeysFor("/backend/monitor/storage", menus)).toEqual({
      selected: ["/manage/monitor"],
      open: ["/manage/monitor"],
    });
  });

  it("selects nothing outside the menu", () => {
    expect(menuKeysFor("/nowhere", menus)).toEqual({ selected: [], open: [] });
  });
});

describe("visibleMenu", () => {
  it("drops hidden items at every depth", () => {
    const monitor = visibleMenu(menus).find((entry) => entry.key === "monitor");
    expect(monitor?.children.map((child) => child.key)).toEqual(["monitor.storage"]);
  });
});
