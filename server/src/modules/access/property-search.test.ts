import { beforeAll, expect, it } from "vitest";
import { API_PREFIX } from "../../http/error-handler.js";
import { describeEachDialect, useTestApp } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";

/**
 * Field-level access and full-text search (docs/property-access.md, "Search"): a property hidden from a
 * role is not matched by that role's searches, on both dialects, and a rule change changes the answer.
 */
describeEachDialect("field-level access in search", (dialect) => {
  const ctx = useTestApp(dialect);
  let admin: TestPrincipal;
  let editor: TestPrincipal;
  let contributor: TestPrincipal;
  let storyId: string;

  const call = (who: TestPrincipal, method: "GET" | "POST" | "PUT", url: string, payload?: object) =>
    ctx().app.inject({ method, url: `${API_PREFIX}${url}`, headers: who.headers, payload });
  /** The ids a full-text search finds (and the answer's text, which must not show a hidden value). */
  const found = async (who: TestPrincipal, text: string): Promise<string[]> => {
    const response = await call(who, "GET", `/stories?fulltext=${encodeURIComponent(text)}&size=50`);
    expect(response.statusCode, response.body).toBe(200);
    const data = response.json().data;
    expect(data.totalElements).toBe(data.content.length);
    return data.content.map((story: { id: string }) => story.id);
  };
  const rules = async (roleId: string, hidden: string[]) => {
    const put = await call(admin, "PUT", `/property-access/${roleId}`, {
      rules: hidden.map((property) => ({ property, visible: false, editable: false })),
    });
    expect(put.statusCode, put.body).toBe(200);
  };
  const create = async (title: string, properties: Record<string, unknown>): Promise<string> => {
    const made = await call(admin, "POST", "/workflow-story-create/photo", { libraryId: "product", title, properties });
    expect(made.statusCode, made.body).toBe(200);
    const id = made.json().data.id as string;
    const committed = await call(admin, "POST", "/workflow-story-create/photo/commit", {
      libraryId: "product",
      storyIds: [id],
    });
    expect(committed.statusCode, committed.body).toBe(200);
    return id;
  };

  beforeAll(async () => {
    admin = await createPrincipal(ctx().db, { username: "fls-admin", roleId: "administrator", admin: true });
    editor = await createPrincipal(ctx().db, { username: "fls-editor", roleId: "editor" });
    contributor = await createPrincipal(ctx().db, { username: "fls-contributor", roleId: "contributor" });
    storyId = await create("harbour crane", {
      sourceFee: "zebrafee 稿酬八百",
      city: "Ulaanbaatar",
      storyLevel: "normal",
    });
  });

  it("finds a property's value for everyone while no role hides it", async () => {
    for (const who of [admin, editor, contributor]) expect(await found(who, "zebrafee")).toEqual([storyId]);
  });

  it("does not find a hidden property's value for the role that may not see it", async () => {
    await rules("contributor", ["sourceFee"]);
    for (const text of ["zebrafee", "zebraf*", "稿酬", '"zebrafee 稿酬"', "harbour zebrafee"]) {
      expect(await found(contributor, text), text).toEqual([]);
      expect(await found(admin, text), text).toEqual([storyId]);
      expect(await found(editor, text), text).toEqual([storyId]);
    }
    // The rest of the story is searched as before.
    expect(await found(contributor, "harbour")).toEqual([storyId]);
    expect(await found(contributor, "ulaanbaatar")).toEqual([storyId]);
    const page = await call(contributor, "GET", `/stories?fulltext=harbour&size=50&facets=true`);
    expect(page.body).not.toContain("zebrafee");
    expect(page.body).not.toContain("sourceFee");
  });

  it("keeps a later edit and a new story's hidden value out of the role's searches", async () => {
    const edited = await call(admin, "PUT", `/workflow-story-edit/photo/${storyId}?libraryId=product`, {
      properties: { sourceFee: "quaggafee" },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await found(contributor, "quaggafee")).toEqual([]);
    expect(await found(editor, "quaggafee")).toEqual([storyId]);
    expect(await found(admin, "zebrafee")).toEqual([]);
    const later = await create("tugboat", { sourceFee: "okapifee" });
    expect(await found(contributor, "okapifee")).toEqual([]);
    expect(await found(editor, "okapifee")).toEqual([later]);
    expect(await found(contributor, "tugboat")).toEqual([later]);
  });

  it("follows each role's own rules when several properties are hidden", async () => {
    await rules("editor", ["city"]);
    expect(await found(editor, "ulaanbaatar")).toEqual([]);
    expect(await found(editor, "quaggafee")).toEqual([storyId]);
    expect(await found(contributor, "ulaanbaatar")).toEqual([storyId]);
    expect(await found(contributor, "quaggafee")).toEqual([]);
    expect(await found(admin, "ulaanbaatar quaggafee")).toEqual([storyId]);
    await rules("editor", []);
    expect(await found(editor, "ulaanbaatar")).toEqual([storyId]);
  });

  it("finds the value again for the role once the rule is lifted", async () => {
    await rules("contributor", []);
    expect(await found(contributor, "quaggafee")).toEqual([storyId]);
    expect(await found(contributor, "okapifee")).toHaveLength(1);
    await rules("contributor", ["sourceFee"]);
    expect(await found(contributor, "quaggafee")).toEqual([]);
  });
});
