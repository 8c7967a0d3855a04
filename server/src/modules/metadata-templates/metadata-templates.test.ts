import { beforeAll, describe, expect, it } from "vitest";
import { auditSince, lastAuditId } from "../../test/audit.js";
import { describeEachDialect, useTestApp } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { applyTemplate, expandVariables } from "./metadata-templates.service.js";

const API = "/dams/api/v1";
const variables = { date: "2026-11-26", user: "王记者", library: "素材库" };

describe("template variables", () => {
  it("replaces {date}, {user} and {library} once; what they bring in is not read again", () => {
    expect(expandVariables("© {date} {user} / {library} {unknown}", variables)).toBe(
      "© 2026-11-26 王记者 / 素材库 {unknown}",
    );
    expect(expandVariables("{user}", { ...variables, user: "{date}{library}" })).toBe("{date}{library}");
    expect(expandVariables('<b>{user}</b> & "{library}"', variables)).toBe('<b>王记者</b> & "素材库"');
  });

  it("applies to every text field, list and property", () => {
    expect(
      applyTemplate(
        { title: "{date}", keywords: ["{library}", "台风"], properties: { credit: "{user}/新华社" } },
        variables,
      ),
    ).toEqual({ title: "2026-11-26", keywords: ["素材库", "台风"], properties: { credit: "王记者/新华社" } });
  });
});

describeEachDialect("metadata templates", (dialect) => {
  const ctx = useTestApp(dialect);
  let admin: TestPrincipal;
  let editor: TestPrincipal;
  const call = (who: TestPrincipal, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
    ctx().app.inject({ method, url: `${API}${url}`, headers: who.headers, payload });

  beforeAll(async () => {
    admin = await createPrincipal(ctx().db, { username: "templates-admin", roleId: "administrator", admin: true });
    editor = await createPrincipal(ctx().db, { username: "templates-editor", roleId: "editor" });
  });

  it("create, edit, apply with variables for the caller and library, delete; audited; writes for administrators", async () => {
    const before = await lastAuditId(ctx().db);
    const values = {
      caption: "{library} 供稿 <script>alert(1)</script>",
      keywords: ["{date}"],
      source: "新华社",
      properties: { credit: "{user}", copyrightNotice: "© {date} Xinhua" },
    };
    const created = await call(admin, "POST", "/metadata-templates", { name: "新华社 图片", values });
    expect(created.statusCode, created.body).toBe(200);
    const template = created.json().data;
    expect(template).toMatchObject({ name: "新华社 图片", values });
    expect((await call(admin, "POST", "/metadata-templates", { name: "新华社 图片", values })).statusCode).toBe(409);
    expect((await call(editor, "POST", "/metadata-templates", { name: "x", values })).statusCode).toBe(403);
    const badKey = await call(admin, "POST", "/metadata-templates", {
      name: "bad",
      values: { properties: { "a b": "x" } },
    });
    expect(badKey.statusCode).toBe(400);

    const listed = await call(editor, "GET", "/metadata-templates");
    expect(listed.json().data.content.map((one: { name: string }) => one.name)).toContain("新华社 图片");

    const applied = await call(editor, "GET", `/metadata-templates/${template.id}/apply/material`);
    expect(applied.statusCode, applied.body).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    const libraries = await call(editor, "GET", "/libraries");
    const material = (libraries.json().data as { id: string; name: string }[]).find((one) => one.id === "material");
    expect(applied.json().data).toEqual({
      caption: `${material?.name} 供稿 <script>alert(1)</script>`,
      keywords: [today],
      source: "新华社",
      properties: { credit: "templates-editor", copyrightNotice: `© ${today} Xinhua` },
    });
    expect((await call(editor, "GET", `/metadata-templates/${template.id}/apply/no-such-library`)).statusCode).toBe(
      404,
    );

    const edited = await call(admin, "PUT", `/metadata-templates/${template.id}`, {
      name: "新华社 图片",
      values: { title: "{user}" },
    });
    expect(edited.json().data.values).toEqual({ title: "{user}" });
    expect((await call(admin, "DELETE", `/metadata-templates/${template.id}`)).statusCode).toBe(200);
    expect((await call(admin, "DELETE", `/metadata-templates/${template.id}`)).statusCode).toBe(404);
    const actions = (await auditSince(ctx().db, before)).map((record) => record.action);
    expect(actions).toEqual(
      expect.arrayContaining(["metadata-template.create", "metadata-template.edit", "metadata-template.delete"]),
    );
  });
});
