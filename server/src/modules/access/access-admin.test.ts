import { beforeAll, expect, it } from "vitest";
import { API_PREFIX } from "../../http/error-handler.js";
import { describeEachDialect, useTestApp } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { verifyPassword } from "../users/password.js";

describeEachDialect("users, roles and grants administration", (dialect) => {
  const ctx = useTestApp(dialect);
  let admin: TestPrincipal;
  let manager: TestPrincipal;

  beforeAll(async () => {
    admin = await createPrincipal(ctx().db, { username: "admin-root", admin: true });
    // Holds the administrator role (every back-area permission) without the admin flag.
    manager = await createPrincipal(ctx().db, { username: "desk-manager", roleId: "administrator" });
  });

  async function call(
    principal: TestPrincipal,
    method: "GET" | "POST" | "PUT" | "DELETE",
    path: string,
    payload?: object,
  ) {
    const response = await ctx().app.inject({
      method,
      url: `${API_PREFIX}${path}`,
      headers: principal.headers,
      payload,
    });
    return { status: response.statusCode, body: response.json() };
  }

  it("creates a user with the contributor role by default and finds them by keyword, paged", async () => {
    const created = await call(admin, "POST", "/users", {
      username: "li.wei",
      name: "李伟",
      password: "a-long-password",
    });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({
      username: "li.wei",
      name: "李伟",
      roleId: "contributor",
      admin: false,
      status: 1,
    });
    await call(admin, "POST", "/users", {
      username: "wang.fang",
      name: "王芳",
      password: "a-long-password",
      roleId: "viewer",
    });
    const found = await call(admin, "GET", "/users?keyword=李&page=0&size=5");
    expect(found.body.data).toMatchObject({ totalElements: 1, size: 5, number: 0 });
    expect(found.body.data.content[0].username).toBe("li.wei");
    const paged = await call(admin, "GET", "/users?size=1&page=1");
    expect(paged.body.data.content).toHaveLength(1);
    expect(paged.body.data.totalElements).toBeGreaterThanOrEqual(4);
  });

  it("names the field in validation messages", async () => {
    const missing = await call(admin, "POST", "/users", { username: "x", password: "short" });
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toContain("body.username");
    expect(missing.body.msg).toContain("body.password");
    const badRole = await call(admin, "POST", "/users", {
      username: "zhao.lei",
      password: "a-long-password",
      roleId: "nope",
    });
    expect(badRole).toMatchObject({
      status: 400,
      body: { error: "role_not_found", msg: expect.stringContaining("body.roleId") },
    });
    const badPermission = await call(admin, "POST", "/roles", {
      name: "odd",
      permissions: [{ permissionId: "no.such.page", actions: ["query"] }],
    });
    expect(badPermission).toMatchObject({
      status: 400,
      body: { msg: expect.stringContaining("body.permissions.0.permissionId") },
    });
    const badAction = await call(admin, "POST", "/roles", {
      name: "odd",
      permissions: [{ permissionId: "search", actions: ["fly"] }],
    });
    expect(badAction.status).toBe(400);
    expect(badAction.body.msg).toContain("body.permissions.0.actions.0");
    const noName = await call(admin, "POST", "/roles", { describe: "nameless" });
    expect(noName.body.msg).toContain("body.name");
    const bothHolders = await call(admin, "POST", "/library-grants", {
      libraryId: "product",
      level: "read",
      roleId: "viewer",
      userId: admin.id,
    });
    expect(bothHolders.body.msg).toContain("body.roleId");
    // A grant names an existing library (or * for all): the back area picks from the libraries.
    const unknown = await call(admin, "POST", "/library-grants", {
      libraryId: "no-such-library",
      level: "read",
      roleId: "viewer",
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: "library_not_found" });
    expect(unknown.body.msg).toContain("body.libraryId");
  });

  it("updates, disables, enables and resets the password of a user", async () => {
    const { body } = await call(admin, "POST", "/users", { username: "chen.jing", password: "a-long-password" });
    const id = body.data.id;
    const updated = await call(manager, "PUT", `/users/${id}`, { name: "陈静", avatarUrl: "/a.png", roleId: "editor" });
    expect(updated.body.data).toMatchObject({
      name: "陈静",
      avatarUrl: "/a.png",
      roleId: "editor",
      roleName: "Editor",
    });
    expect((await call(manager, "POST", `/users/${id}/disable`)).body.data.status).toBe(0);
    expect((await call(manager, "POST", `/users/${id}/enable`)).body.data.status).toBe(1);
    expect((await call(manager, "POST", `/users/${id}/password`, { password: "brand-new-password" })).status).toBe(200);
    const row = await ctx()
      .db.kysely.selectFrom("users")
      .select("password_hash")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(await verifyPassword(row.password_hash!, "brand-new-password")).toBe(true);
  });

  it("keeps the admin flag and administrators' accounts for administrators", async () => {
    const { body } = await call(admin, "POST", "/users", { username: "sun.li", password: "a-long-password" });
    expect((await call(manager, "PUT", `/users/${body.data.id}`, { admin: true })).body).toMatchObject({
      code: 403,
      error: "admin_only",
    });
    expect(
      (await call(manager, "POST", "/users", { username: "sneaky", password: "a-long-password", admin: true })).status,
    ).toBe(403);
    expect((await call(manager, "POST", `/users/${admin.id}/disable`)).status).toBe(403);
    expect((await call(manager, "POST", `/users/${admin.id}/password`, { password: "taken-over-now" })).status).toBe(
      403,
    );
    expect((await call(manager, "PUT", `/users/${manager.id}`, { roleId: "viewer" })).body.error).toBe("own_account");
    expect((await call(admin, "POST", `/users/${admin.id}/disable`)).body.error).toBe("own_account");
    expect((await call(admin, "PUT", `/users/${body.data.id}`, { admin: true })).body.data.admin).toBe(true);
  });

  it("lets a non-administrator hand out only permissions they hold", async () => {
    const deskRole = await call(admin, "POST", "/roles", {
      name: "user desk",
      permissions: [
        { permissionId: "manage.userrole.user", actions: ["query", "add", "edit"] },
        { permissionId: "manage.userrole.role", actions: ["query", "add", "edit"] },
      ],
    });
    const desk = await createPrincipal(ctx().db, { username: "user-desk", roleId: deskRole.body.data.id });
    const target = await call(desk, "POST", "/users", {
      username: "new.hire",
      password: "a-long-password",
      roleId: "viewer",
    });
    expect(target.status).toBe(403);
    expect(target.body).toEqual({
      code: 403,
      msg: expect.stringContaining("which you do not hold"),
      error: "permission_not_held",
    });

    const plain = await call(admin, "POST", "/users", { username: "plain.user", password: "a-long-password" });
    const escalate = await call(desk, "PUT", `/users/${plain.body.data.id}`, { roleId: "administrator" });
    expect(escalate).toMatchObject({ status: 403, body: { error: "permission_not_held" } });

    const widened = await call(desk, "POST", "/roles", {
      name: "wider",
      permissions: [{ permissionId: "upload.image", actions: ["delete"] }],
    });
    expect(widened).toMatchObject({ status: 403, body: { error: "permission_not_held" } });
    const within = await call(desk, "POST", "/roles", {
      name: "narrower",
      permissions: [{ permissionId: "manage.userrole.user", actions: ["query"] }],
    });
    expect(within.status).toBe(200);
    const assigned = await call(desk, "PUT", `/users/${plain.body.data.id}`, { roleId: within.body.data.id });
    expect(assigned.status).toBe(200);
  });

  it("creates a role with its permissions × actions matrix and changes it", async () => {
    const created = await call(admin, "POST", "/roles", {
      name: "Photo desk",
      describe: "photo editors",
      permissions: [
        { permissionId: "search", actions: ["query", "get"] },
        { permissionId: "upload.image", actions: ["add", "edit", "add"] },
      ],
    });
    expect(created.status).toBe(200);
    const role = created.body.data;
    expect(role).toMatchObject({ name: "Photo desk", status: 1, deleted: 0, creatorId: admin.id });
    expect(
      role.permissions.map((p: { permissionId: string; actionList: string[] }) => [p.permissionId, p.actionList]),
    ).toEqual([
      ["search", ["query", "get"]],
      ["upload.image", ["add", "edit"]],
    ]);
    const changed = await call(admin, "PUT", `/roles/${role.id}`, {
      permissions: [{ permissionId: "story.list", actions: ["query"] }],
      status: 0,
    });
    expect(changed.body.data.status).toBe(0);
    expect(changed.body.data.permissions.map((p: { permissionId: string }) => p.permissionId)).toEqual(["story.list"]);
    const catalogue = await call(admin, "GET", "/roles/permissions");
    expect(catalogue.body.data.map((entry: { permissionId: string }) => entry.permissionId)).toEqual(
      expect.arrayContaining(["search", "manage.userrole.role", "manage.setting.tag"]),
    );
    const listed = await call(admin, "GET", "/roles?keyword=photo");
    expect(listed.body.data.content.map((r: { id: string }) => r.id)).toEqual([role.id]);
  });

  it("refuses to delete a role users hold, and deletes it once nobody does", async () => {
    const { body } = await call(admin, "POST", "/roles", { name: "Night shift" });
    const roleId = body.data.id;
    const holder = await call(admin, "POST", "/users", { username: "night.owl", password: "a-long-password", roleId });
    const refused = await call(admin, "DELETE", `/roles/${roleId}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: "role_in_use", msg: expect.stringContaining("held by 1 user") });
    await call(admin, "PUT", `/users/${holder.body.data.id}`, { roleId: "viewer" });
    expect((await call(admin, "DELETE", `/roles/${roleId}`)).status).toBe(200);
    expect((await call(admin, "GET", `/roles?keyword=night`)).body.data.totalElements).toBe(0);
    expect((await call(admin, "DELETE", `/roles/${roleId}`)).status).toBe(404);
    expect((await call(admin, "DELETE", "/roles/administrator")).status).toBe(409);
  });

  it("grants a user a library, lists grants with the seeded ones, and takes it back", async () => {
    const reporter = await createPrincipal(ctx().db, { username: "grant-reporter" });
    const granted = await call(admin, "POST", "/library-grants", {
      libraryId: "publish",
      userId: reporter.id,
      level: "write",
    });
    expect(granted.body.data).toMatchObject({
      libraryId: "publish",
      userId: reporter.id,
      username: "grant-reporter",
      level: "write",
    });
    const listed = await call(admin, "GET", "/library-grants?libraryId=publish");
    expect(listed.body.data.content.map((g: { id: string }) => g.id)).toContain(granted.body.data.id);
    const seeded = await call(admin, "GET", "/library-grants?libraryId=*");
    expect(
      seeded.body.data.content.map((g: { roleId: string; level: string }) => `${g.roleId}:${g.level}`).sort(),
    ).toEqual(["administrator:manage", "editor:write", "viewer:read"]);
    expect((await call(admin, "DELETE", `/library-grants/${granted.body.data.id}`)).status).toBe(200);
    expect((await call(admin, "DELETE", `/library-grants/${granted.body.data.id}`)).status).toBe(404);
  });
});
