import { beforeAll, expect, it } from "vitest";
import { API_PREFIX } from "../../http/error-handler.js";
import { describeEachDialect, useTestApp } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import type { MenuItem } from "./menus.schema.js";

function keys(items: MenuItem[]): string[] {
  return items.flatMap((item) => [item.key, ...keys(item.children)]);
}

describeEachDialect("menus filtered by role", (dialect) => {
  const ctx = useTestApp(dialect);
  const who: Record<string, TestPrincipal> = {};

  beforeAll(async () => {
    const { db } = ctx();
    who.admin = await createPrincipal(db, { username: "menu-admin", admin: true });
    who.administrator = await createPrincipal(db, { username: "menu-administrator", roleId: "administrator" });
    who.editor = await createPrincipal(db, { username: "menu-editor", roleId: "editor" });
    who.contributor = await createPrincipal(db, { username: "menu-contributor" });
    who.viewer = await createPrincipal(db, { username: "menu-viewer", roleId: "viewer" });
  });

  async function menu(area: "user" | "admin", principal: TestPrincipal): Promise<MenuItem[]> {
    const response = await ctx().app.inject({
      method: "GET",
      url: `${API_PREFIX}/${area}-menus`,
      headers: principal.headers,
    });
    expect(response.statusCode).toBe(200);
    return response.json().data;
  }

  it("shows an administrator every item, system settings included", async () => {
    const all = await ctx().db.kysely.selectFrom("menus").select(["area", "key"]).execute();
    expect(keys(await menu("user", who.admin!)).sort()).toEqual(
      all
        .filter((m) => m.area === "user")
        .map((m) => m.key)
        .sort(),
    );
    const admin = keys(await menu("admin", who.admin!));
    expect(admin.sort()).toEqual(
      all
        .filter((m) => m.area === "admin")
        .map((m) => m.key)
        .sort(),
    );
    expect(admin).toContain("manage.setting.tag");
  });

  it("keeps system settings from a non-admin who holds the administrator role", async () => {
    const admin = keys(await menu("admin", who.administrator!));
    expect(admin).toContain("manage.userrole.user");
    expect(admin).toContain("manage.access.control");
    expect(admin.filter((key) => key.startsWith("manage.setting"))).toEqual([]);
  });

  it("shows a viewer the browsing pages only and no back area", async () => {
    const front = await menu("user", who.viewer!);
    expect(keys(front)).toEqual(expect.arrayContaining(["search", "story.list", "upload.favorite", "share.netdisk"]));
    expect(keys(front)).not.toContain("upload.image");
    const upload = front.find((item) => item.key === "upload")!;
    expect(upload.redirect).toBe("/upload/favorite");
    expect(await menu("admin", who.viewer!)).toEqual([]);
  });

  it("shows a contributor the upload and story pages, and an empty back area", async () => {
    const front = keys(await menu("user", who.contributor!));
    expect(front).toEqual(expect.arrayContaining(["search", "upload.image", "story.list", "halfproduct.list"]));
    expect(front).not.toContain("share.netdisk");
    expect(await menu("admin", who.contributor!)).toEqual([]);
  });

  it("shows an editor the whole front area and only the monitors of the back area", async () => {
    expect(keys(await menu("user", who.editor!))).toContain("share.netdisk");
    const back = await menu("admin", who.editor!);
    expect(back.map((item) => item.key)).toEqual(["manage.monitor"]);
    expect(keys(back)).toContain("backend.monitor.storage");
  });

  it("answers /users/login/user with the role's permissions, as the server enforces them", async () => {
    const response = await ctx().app.inject({
      method: "GET",
      url: `${API_PREFIX}/users/login/user`,
      headers: who.viewer!.headers,
    });
    const me = response.json().data;
    expect(me).toMatchObject({ username: "menu-viewer", admin: false, role: { id: "viewer", status: 1 } });
    const search = me.role.permissions.find((p: { permissionId: string }) => p.permissionId === "search");
    expect(search.actionList).toEqual(["query", "get"]);
    expect(JSON.parse(search.actions)).toEqual(search.actionEntitySet);
    expect(search.actionEntitySet[0]).toEqual({ action: "query", describe: "查询", defaultCheck: false });

    const administrator = await ctx().app.inject({
      method: "GET",
      url: `${API_PREFIX}/users/login/user`,
      headers: who.administrator!.headers,
    });
    const ids = administrator.json().data.role.permissions.map((p: { permissionId: string }) => p.permissionId);
    expect(ids).toContain("manage.userrole.role");
    expect(ids.filter((id: string) => id.startsWith("manage.setting"))).toEqual([]);
  });
});
