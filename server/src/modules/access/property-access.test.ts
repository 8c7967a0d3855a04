import { beforeAll, expect, it } from "vitest";
import { API_PREFIX } from "../../http/error-handler.js";
import { describeEachDialect, useTestApp } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { committedPhoto } from "../../test/stories-app.js";

/** Field-level access (/manage/userrole/property) through the API, on both dialects. */
describeEachDialect("field-level access", (dialect) => {
  const ctx = useTestApp(dialect);
  let admin: TestPrincipal;
  let editor: TestPrincipal;
  let viewer: TestPrincipal;
  let storyId: string;

  const call = (who: TestPrincipal, method: "GET" | "POST" | "PUT", url: string, payload?: object) =>
    ctx().app.inject({ method, url: `${API_PREFIX}${url}`, headers: who.headers, payload });
  /** Every key of every `properties` object anywhere in an answer. */
  const propertyKeys = (body: unknown): string[] => {
    const keys: string[] = [];
    const visit = (value: unknown) => {
      if (Array.isArray(value)) value.forEach(visit);
      else if (value && typeof value === "object") {
        for (const [key, inner] of Object.entries(value)) {
          if (key === "properties" && inner && typeof inner === "object") keys.push(...Object.keys(inner));
          visit(inner);
        }
      }
    };
    visit(body);
    return keys;
  };

  beforeAll(async () => {
    admin = await createPrincipal(ctx().db, { username: "fla-admin", roleId: "administrator", admin: true });
    editor = await createPrincipal(ctx().db, { username: "fla-editor", roleId: "editor" });
    viewer = await createPrincipal(ctx().db, { username: "fla-viewer", roleId: "viewer" });
    storyId = await committedPhoto(ctx, admin, {
      title: "稿费 story",
      properties: { sourceFee: 800, city: "北京", storyLevel: "normal" },
    });
  });

  it("keeps a role's rules: hidden implies read-only; only the default is not stored", async () => {
    const put = await call(admin, "PUT", "/property-access/viewer", {
      rules: [
        { property: "sourceFee", visible: false, editable: true },
        { property: "city", visible: true, editable: true },
      ],
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data).toEqual([{ property: "sourceFee", visible: false, editable: false }]);
    await call(admin, "PUT", "/property-access/editor", {
      rules: [{ property: "sourceFee", visible: true, editable: false }],
    });
    expect((await call(admin, "GET", "/property-access/editor")).json().data).toEqual([
      { property: "sourceFee", visible: true, editable: false },
    ]);
    expect((await call(admin, "GET", "/property-access/no-such-role")).statusCode).toBe(404);
    expect((await call(editor, "PUT", "/property-access/viewer", { rules: [] })).statusCode).toBe(403);
    const logged = await ctx()
      .db.kysely.selectFrom("audit_log")
      .select("target_id")
      .where("action", "=", "role.property-access")
      .execute();
    expect(logged.map((row) => row.target_id).sort()).toEqual(["editor", "viewer"]);
  });

  it("omits a property hidden from the viewer role everywhere a story is answered", async () => {
    const urls = [
      `/stories/product/${storyId}`,
      `/stories?libraryId=product&size=50`,
      `/stories?keyword=${encodeURIComponent("稿费")}&size=50`,
      `/stories/product/${storyId}/versions`,
    ];
    for (const url of urls) {
      const seen = await call(viewer, "GET", url);
      expect(seen.statusCode, `${url}: ${seen.body}`).toBe(200);
      expect(seen.body, url).not.toContain("sourceFee");
      // The value as a JSON number anywhere (a bare "800" also occurs in ids and timestamps by chance).
      expect(seen.body, url).not.toMatch(/[:[,]800[,}\]]/);
      const byEditor = await call(editor, "GET", url);
      if (propertyKeys(byEditor.json()).length > 0) expect(propertyKeys(byEditor.json()), url).toContain("sourceFee");
    }
    const listed = (await call(viewer, "GET", "/stories?libraryId=product&size=50")).json().data.content;
    expect(listed.map((story: { id: string }) => story.id)).toContain(storyId);
    const viewed = (await call(viewer, "GET", `/stories/product/${storyId}`)).json().data;
    expect(viewed.properties).toEqual({ city: "北京", storyLevel: "normal" });
    expect((await call(admin, "GET", `/stories/product/${storyId}`)).json().data.properties).toMatchObject({
      sourceFee: 800,
      city: "北京",
    });
  });

  it("refuses an edit of a property the role may not edit, and allows the others", async () => {
    const edit = (who: TestPrincipal, properties: Record<string, unknown>) =>
      call(who, "PUT", `/workflow-story-edit/photo/${storyId}?libraryId=product`, { properties });
    const refused = await edit(editor, { sourceFee: 1 });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json()).toMatchObject({ error: "property_not_editable" });
    expect(refused.json().msg).toContain("properties.sourceFee");
    const allowed = await edit(editor, { city: "上海" });
    expect(allowed.statusCode, allowed.body).toBe(200);
    expect((await edit(admin, { sourceFee: 900 })).statusCode).toBe(200);
    const stored = (await call(admin, "GET", `/stories/product/${storyId}`)).json().data.properties;
    expect(stored).toMatchObject({ sourceFee: 900, city: "上海" });
  });

  it("tells a form which properties the caller's role may edit (/properties/list `editable`)", async () => {
    const rules = await call(admin, "PUT", "/property-access/editor", {
      rules: [{ property: "storyLevel", visible: true, editable: false }],
    });
    expect(rules.statusCode, rules.body).toBe(200);
    const listed = async (who: TestPrincipal) => {
      const response = await call(who, "GET", "/properties/list?storytype=photo&libraryId=product");
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data as { name: string; editable: boolean }[];
    };
    expect((await listed(editor)).find((property) => property.name === "storyLevel")).toMatchObject({
      editable: false,
    });
    expect((await listed(admin)).every((property) => property.editable)).toBe(true);
    expect((await listed(viewer)).find((property) => property.name === "storyLevel")?.editable).toBe(true);
    const refused = await call(editor, "PUT", `/workflow-story-edit/photo/${storyId}?libraryId=product`, {
      properties: { storyLevel: "normal" },
    });
    expect(refused.json()).toMatchObject({ error: "property_not_editable" });
  });

  it("tells a form which IPTC texts the caller's role may not edit (/properties/locked)", async () => {
    const rules = await call(admin, "PUT", "/property-access/editor", {
      rules: [
        { property: "credit", visible: true, editable: false },
        { property: "copyrightNotice", visible: false, editable: true },
      ],
    });
    expect(rules.statusCode, rules.body).toBe(200);
    const locked = async (who: TestPrincipal) => {
      const response = await call(who, "GET", "/properties/locked");
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data.locked as string[];
    };
    expect(await locked(editor)).toEqual(["copyrightNotice", "credit"]);
    expect(await locked(admin)).toEqual([]);
    // Another role's rules are its own (the viewer keeps the hidden property of an earlier case).
    expect(await locked(viewer)).not.toContain("credit");
    // What the form disables is what the edit refuses.
    const refused = await call(editor, "PUT", `/workflow-story-edit/photo/${storyId}?libraryId=product`, {
      properties: { credit: "新华社" },
    });
    expect(refused.json()).toMatchObject({ error: "property_not_editable" });
  });

  it("answers a role's rule change at once: the role's hidden set is kept, and dropped when its rules change", async () => {
    const seen = async () => {
      const response = await call(editor, "GET", `/stories/product/${storyId}`);
      expect(response.statusCode, response.body).toBe(200);
      return Object.keys(response.json().data.properties);
    };
    // Read twice: the second answer comes from the kept set.
    expect(await seen()).toContain("city");
    expect(await seen()).toContain("city");
    const hide = await call(admin, "PUT", "/property-access/editor", {
      rules: [{ property: "city", visible: false, editable: false }],
    });
    expect(hide.statusCode, hide.body).toBe(200);
    expect(await seen()).not.toContain("city");
    expect(await seen()).toContain("sourceFee");
    const show = await call(admin, "PUT", "/property-access/editor", { rules: [] });
    expect(show.statusCode, show.body).toBe(200);
    expect(await seen()).toContain("city");
  });
});
