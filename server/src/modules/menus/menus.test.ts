import { beforeAll, expect, it } from "vitest";
import { describeEachDialect, useTestApp } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import type { MenuItem } from "./menus.schema.js";

function flatten(items: MenuItem[]): MenuItem[] {
  return items.flatMap((item) => [item, ...flatten(item.children)]);
}

describeEachDialect("menus", (dialect) => {
  const ctx = useTestApp(dialect);
  // An administrator sees the whole menu; filtering by role is tested in access/menu-visibility.test.ts.
  let admin: TestPrincipal;
  beforeAll(async () => {
    admin = await createPrincipal(ctx().db, { username: "admin", admin: true });
  });

  async function menu(url: string): Promise<MenuItem[]> {
    const response = await ctx().app.inject({ method: "GET", url, headers: admin.headers });
    expect(response.statusCode).toBe(200);
    return response.json().data;
  }

  it("gives the front area every page the spec names", async () => {
    const items = flatten(await menu("/dams/api/v1/user-menus"));
    const paths = items.map((item) => item.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        "/frontend/search",
        "/upload/image",
        "/upload/video",
        "/upload/audio",
        "/upload/favorite",
        "/upload/download",
        "/upload/my",
        "/story/list",
        "/halfproduct/list",
        "/share/netdisk",
      ]),
    );
  });

  it("gives the back area every page the spec names, in order, as a tree", async () => {
    const roots = await menu("/dams/api/v1/admin-menus");
    const setting = roots.find((item) => item.path === "/manage/setting")!;
    expect(setting.redirect).toBe("/manage/setting/category");
    expect(setting.component).toBeNull();
    expect(setting.children.map((child) => child.path.split("/").pop())).toEqual([
      "category",
      "codelist",
      "template",
      "library",
      "bucket",
      "tunnel",
      "action",
      "download",
      "tag",
      "theme",
      "keyword",
      "source",
      "log",
      "catalogue",
      "author",
      "watermark",
      "storyProperties",
    ]);
    const paths = flatten(roots).map((item) => item.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        "/manage/storage/setting",
        "/manage/access/control",
        "/manage/monitor/storage",
        "/manage/monitor/data",
        "/manage/monitor/task",
        "/manage/monitor/publish",
        "/backend/setting/usedStatistic",
        "/manage/userrole/user",
        "/manage/userrole/role",
        "/manage/userrole/property",
      ]),
    );
  });

  it("returns the fields of spec section 2 for every item", async () => {
    const items = flatten([...(await menu("/dams/api/v1/admin-menus")), ...(await menu("/dams/api/v1/user-menus"))]);
    for (const item of items) {
      expect(Object.keys(item).sort()).toEqual(
        ["children", "component", "hidden", "icon", "id", "key", "path", "redirect", "title"].sort(),
      );
      expect(item.title).toBe(`menu.${item.key}`);
      expect(item.component !== null || item.redirect !== null).toBe(true);
    }
    expect(new Set(items.map((item) => item.key)).size).toBe(items.length);
  });

  it("keeps the /backend landing page out of the visible menu", async () => {
    const items = flatten(await menu("/dams/api/v1/admin-menus"));
    const landing = items.find((item) => item.path === "/backend/monitor/storage")!;
    expect(landing.hidden).toBe(true);
    expect(landing.component).toBe("manage/monitor/storage");
    expect(items.filter((item) => item.hidden)).toHaveLength(1);
  });
});
