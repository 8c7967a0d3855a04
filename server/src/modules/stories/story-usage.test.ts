import { beforeAll, expect, it } from "vitest";
import { callApi } from "../../test/api-call.js";
import { describeEachDialect, useTestApp } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";

interface Entry {
  id: string;
  name: string;
}

interface Action {
  action: string;
  username: string | null;
  details: Record<string, unknown>;
}

describeEachDialect("catalogue entries used by stories", (dialect) => {
  const ctx = useTestApp(dialect);
  let admin: TestPrincipal;

  beforeAll(async () => {
    admin = await createPrincipal(ctx().db, { username: "usage-admin", admin: true });
  });

  it("refuses to delete a tag, author, theme or source stories use, counting them; unused entries go", async () => {
    const { app } = ctx();
    const tag = await callApi<Entry>(app, admin, "POST", "/tag", { name: "航天" });
    const unusedTag = await callApi<Entry>(app, admin, "POST", "/tag", { name: "Budget" });
    const author = await callApi<Entry>(app, admin, "POST", "/nrauthor/create", { name: "张三" });
    const theme = await callApi<Entry>(app, admin, "POST", "/theme", { name: "两会" });
    const story = { libraryId: "product", authors: ["张三"], theme: "两会" };
    await callApi(app, admin, "POST", "/workflow-story-create/photo", { ...story, title: "a", tags: ["航天", "台风"] });
    await callApi(app, admin, "POST", "/workflow-story-create/photo", { ...story, title: "b", tags: ["航天"] });
    await callApi(app, admin, "POST", "/workflow-story-create/photo", {
      libraryId: "product",
      title: "c",
      tags: ["航天x"],
    });

    const refusedTag = await callApi<{ msg: string }>(app, admin, "DELETE", `/tag/${tag.id}`, undefined, 409);
    expect(refusedTag.msg).toBe('the tag "航天" is used by 2 stories and cannot be deleted');
    const refusedAuthor = await callApi<{ msg: string }>(
      app,
      admin,
      "DELETE",
      `/nrauthor/delete/${author.id}`,
      undefined,
      409,
    );
    expect(refusedAuthor.msg).toBe('the author "张三" is used by 2 stories and cannot be deleted');
    await callApi(app, admin, "DELETE", `/theme/${theme.id}`, undefined, 409);
    await callApi(app, admin, "DELETE", `/tag/${unusedTag.id}`);
  });

  it("merges a tag into another instead of refusing: stories re-pointed once, found by the target's name only", async () => {
    const { app } = ctx();
    const from = await callApi<Entry>(app, admin, "POST", "/tag", { name: "Typhoonmergeold" });
    const into = await callApi<Entry>(app, admin, "POST", "/tag", { name: "Typhoonmergenew" });
    const create = (title: string, tags: string[]) =>
      callApi<{ id: string }>(app, admin, "POST", "/workflow-story-create/photo", {
        libraryId: "product",
        title,
        tags,
      });
    const both = await create("merge both", ["typhoonmergeold", "Rain", "Typhoonmergenew"]);
    const old = await create("merge old", ["Typhoonmergeold"]);
    const other = await create("merge other", ["Rain"]);
    const history = async (id: string) =>
      (await callApi<{ content: Action[] }>(app, admin, "GET", `/story-actions?libraryId=product&storyId=${id}`))
        .content;

    const merged = await callApi<{ mergedInto: string; stories: number }>(
      app,
      admin,
      "DELETE",
      `/tag/${from.id}?mergeInto=${into.id}`,
    );
    expect(merged).toEqual({ mergedInto: into.id, stories: 2 });
    const tagsOf = async (id: string) =>
      (await callApi<{ tags: string[] }>(app, admin, "GET", `/stories/product/${id}`)).tags;
    expect(await tagsOf(both.id)).toEqual(["Typhoonmergenew", "Rain"]);
    expect(await tagsOf(old.id)).toEqual(["Typhoonmergenew"]);
    expect(await tagsOf(other.id)).toEqual(["Rain"]);
    await callApi(app, admin, "DELETE", `/tag/${from.id}`, undefined, 404);
    // Each re-pointed story's history has the merge, by whoever merged; the untouched one's has not.
    for (const story of [both, old]) {
      const [latest, ...earlier] = await history(story.id);
      expect(latest).toMatchObject({
        action: "edit",
        username: "usage-admin",
        details: { fields: ["tags"], merged: { kind: "tag", from: "Typhoonmergeold", into: "Typhoonmergenew" } },
      });
      expect(earlier.map((action) => action.action)).toEqual(["create"]);
    }
    expect((await history(other.id)).map((action) => action.action)).toEqual(["create"]);

    const found = async (text: string) =>
      (
        await callApi<{ content: { id: string }[] }>(
          app,
          admin,
          "GET",
          `/stories?fulltext=${encodeURIComponent(text)}&size=50`,
        )
      ).content
        .map((story) => story.id)
        .sort();
    expect(await found("Typhoonmergenew")).toEqual([both.id, old.id].sort());
    expect(await found("Typhoonmergeold")).toEqual([]);
    const byTag = await callApi<{ content: { id: string }[] }>(app, admin, "GET", "/stories?tag=Typhoonmergenew");
    expect(byTag.content.map((story) => story.id).sort()).toEqual([both.id, old.id].sort());
    // The target is now in use by both stories: a plain delete is refused with the new count.
    const refused = await callApi<{ msg: string }>(app, admin, "DELETE", `/tag/${into.id}`, undefined, 409);
    expect(refused.msg).toBe('the tag "Typhoonmergenew" is used by 2 stories and cannot be deleted');
  });

  it("merges keywords (adding use counts), authors, themes, sources and categories", async () => {
    const { app } = ctx();
    const story = await callApi<{ id: string }>(app, admin, "POST", "/workflow-story-create/photo", {
      libraryId: "product",
      title: "merge kinds",
      keywords: ["kwmergea"],
      authors: ["Reporter Mergeold"],
      theme: "Theme Mergeold",
      source: "Source Mergeold",
      category: "Category Mergeold",
    });
    const pair = async (create: string, names: [string, string]) =>
      [
        await callApi<Entry>(app, admin, "POST", create, { name: names[0] }),
        await callApi<Entry>(app, admin, "POST", create, { name: names[1] }),
      ] as const;
    const keywordsBefore = await callApi<{ name: string; useCount: number }[]>(
      app,
      admin,
      "GET",
      "/keyword/list?keyword=kwmerge",
    );
    const fromKeyword = (keywordsBefore as (Entry & { useCount: number })[]).find(
      (keyword) => keyword.name === "kwmergea",
    );
    expect(fromKeyword?.useCount).toBeGreaterThan(0);
    const intoKeyword = await callApi<Entry>(app, admin, "POST", "/keyword", { name: "kwmergeb" });
    await callApi(app, admin, "DELETE", `/keyword/${fromKeyword?.id}?mergeInto=${intoKeyword.id}`);
    const keywordsAfter = await callApi<{ name: string; useCount: number }[]>(
      app,
      admin,
      "GET",
      "/keyword/list?keyword=kwmerge",
    );
    expect(keywordsAfter.map((keyword) => [keyword.name, keyword.useCount])).toEqual([
      ["kwmergeb", fromKeyword?.useCount],
    ]);

    const [authorA, authorB] = await pair("/nrauthor/create", ["Reporter Mergeold", "Reporter Mergenew"]);
    await callApi(app, admin, "DELETE", `/nrauthor/delete/${authorA.id}?mergeInto=${authorB.id}`);
    const [themeA, themeB] = await pair("/theme", ["Theme Mergeold", "Theme Mergenew"]);
    await callApi(app, admin, "DELETE", `/theme/${themeA.id}?mergeInto=${themeB.id}`);
    const [sourceA, sourceB] = await pair("/source", ["Source Mergeold", "Source Mergenew"]);
    await callApi(app, admin, "DELETE", `/source/${sourceA.id}?mergeInto=${sourceB.id}`);
    const [categoryA, categoryB] = await pair("/categories", ["Category Mergeold", "Category Mergenew"]);
    await callApi(app, admin, "DELETE", `/categories/${categoryA.id}?mergeInto=${categoryB.id}`);

    const after = await callApi<Record<string, unknown>>(app, admin, "GET", `/stories/product/${story.id}`);
    expect([after.keywords, after.authors, after.theme, after.source, after.category]).toEqual([
      ["kwmergeb"],
      ["Reporter Mergenew"],
      "Theme Mergenew",
      "Source Mergenew",
      "Category Mergenew",
    ]);
    // One story action per merge that changed the story, naming the field.
    const actions = (
      await callApi<{ content: Action[] }>(app, admin, "GET", `/story-actions?libraryId=product&storyId=${story.id}`)
    ).content;
    expect(actions.map((action) => [action.action, action.details.fields])).toEqual([
      ["edit", ["category"]],
      ["edit", ["source"]],
      ["edit", ["theme"]],
      ["edit", ["authors"]],
      ["edit", ["keywords"]],
      ["create", undefined],
    ]);
    expect(actions[0]!.details.merged).toEqual({
      kind: "category",
      from: "Category Mergeold",
      into: "Category Mergenew",
    });
  });

  it("refuses a merge into the entry itself, a missing entry, or another kind's entry", async () => {
    const { app } = ctx();
    const tag = await callApi<Entry>(app, admin, "POST", "/tag", { name: "Mergeself" });
    const theme = await callApi<Entry>(app, admin, "POST", "/theme", { name: "Mergeothertheme" });
    const self = await callApi<{ msg: string }>(
      app,
      admin,
      "DELETE",
      `/tag/${tag.id}?mergeInto=${tag.id}`,
      undefined,
      400,
    );
    expect(self.msg).toBe("mergeInto: a tag cannot be merged into itself");
    const missing = "00000000-0000-4000-8000-000000000000";
    const gone = await callApi<{ msg: string }>(
      app,
      admin,
      "DELETE",
      `/tag/${tag.id}?mergeInto=${missing}`,
      undefined,
      400,
    );
    expect(gone.msg).toBe(`mergeInto: no tag has the id ${missing}`);
    await callApi(app, admin, "DELETE", `/tag/${tag.id}?mergeInto=${theme.id}`, undefined, 400);
    await callApi(app, admin, "DELETE", `/tag/${tag.id}?mergeInto=notanid`, undefined, 400);
    // Nothing was deleted by the refusals.
    const tags = await callApi<{ content: Entry[] }>(app, admin, "GET", "/tag?name=Mergeself");
    expect(tags.content.map((entry) => entry.id)).toEqual([tag.id]);
  });
});
