import { describe, expect, it } from "vitest";
import type { MenuItem } from "../api/client";
import { errorPageFor, findMenuItem, resolveRouteMeta } from "./menu-routes";

const item = (key: string, path: string, children: MenuItem[] = [], component: string | null = null): MenuItem => ({
  id: key,
  key,
  path,
  title: `menu.${key}`,
  icon: null,
  component,
  redirect: children[0]?.path ?? null,
  hidden: false,
  children,
});

const menus = [
  item("search", "/frontend/search", [], "frontend/search"),
  item("upload", "/upload", [item("upload.image", "/upload/image", [], "upload/image")]),
];

describe("resolveRouteMeta", () => {
  it("titles a menu page and gives the breadcrumb of its ancestors", () => {
    expect(resolveRouteMeta("/upload/image", menus)).toEqual({
      titleKey: "menu.upload.image",
      trail: [
        { titleKey: "menu.upload", path: "/upload" },
        { titleKey: "menu.upload.image", path: "/upload/image" },
      ],
    });
  });

  it("titles the fixed library route", () => {
    expect(resolveRouteMeta("/frontend/product/42", menus).titleKey).toBe("route.frontend.library");
    expect(resolveRouteMeta("/frontend/search", []).titleKey).toBe("menu.search");
  });

  it("has no title for unknown paths", () => {
    expect(resolveRouteMeta("/nowhere/at/all", menus)).toEqual({ trail: [] });
    expect(findMenuItem(menus, "/nowhere")).toBeUndefined();
  });
});

describe("errorPageFor", () => {
  it("sends a failed menu load to the page of its status", () => {
    expect(errorPageFor(403)).toBe("/403");
    expect(errorPageFor(404)).toBe("/404");
    expect(errorPageFor(500)).toBe("/500");
    expect(errorPageFor(502)).toBe("/500");
    expect(errorPageFor(null)).toBe("/500");
  });
});
