import { beforeAll, expect, it } from "vitest";
import { describeEachDialect } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { api, uploadStory, useStoriesApp } from "../../test/stories-app.js";

interface StoryView {
  id: string;
  title: string;
  caption: string;
  keywords: string[];
  capturedAt: string | null;
  properties: Record<string, unknown>;
  revision: number;
}

interface Action {
  userId: string | null;
  username: string | null;
  action: string;
  details: { fields?: string[]; changes?: { field: string; from: unknown; to: unknown }[] };
}

describeEachDialect("editing a committed story's metadata (ETag / If-Match)", (dialect) => {
  const ctx = useStoriesApp(dialect);
  const call = api(ctx);
  let editor: TestPrincipal;
  let colleague: TestPrincipal;
  let viewer: TestPrincipal;

  beforeAll(async () => {
    editor = await createPrincipal(ctx().db, { username: "edit-editor", roleId: "editor" });
    colleague = await createPrincipal(ctx().db, { username: "edit-colleague", roleId: "editor" });
    viewer = await createPrincipal(ctx().db, { username: "edit-viewer", roleId: "viewer" });
  });

  async function committedStory(): Promise<StoryView> {
    const { story } = await uploadStory(ctx(), editor, { keywords: ["台风"] });
    const response = await call(editor, "POST", "/workflow-story-create/photo/commit", {
      libraryId: "product",
      storyIds: [story.id],
      // product's form requires 稿件级别: a committed story has it.
      metadata: { title: "码头", caption: "早上的码头", properties: { storyLevel: "normal" } },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data[0];
  }

  const edit = (who: TestPrincipal, id: string, body: object, headers: Record<string, string> = {}) =>
    call(who, "PUT", `/workflow-story-edit/photo/${id}?libraryId=product`, body, headers);

  const history = async (id: string): Promise<Action[]> =>
    (await call(editor, "GET", `/story-actions?libraryId=product&storyId=${id}&size=50`)).json().data.content;

  it("answers the revision as ETag, moves it on with each edit and records each field from what to what", async () => {
    const story = await committedStory();
    const got = await call(editor, "GET", `/stories/product/${story.id}`);
    expect(got.headers.etag).toBe(`"${story.revision}"`);
    expect(got.json().data.revision).toBe(story.revision);

    const saved = await edit(
      editor,
      story.id,
      {
        caption: "傍晚的码头 harbourdusk",
        keywords: ["台风", "码头"],
        capturedAt: "2024-05-06T07:08:09+08:00",
        properties: { credit: "新华社", city: "广州" },
      },
      { "if-match": got.headers.etag as string },
    );
    expect(saved.statusCode, saved.body).toBe(200);
    const after = saved.json().data as StoryView;
    expect(after.revision).toBe(story.revision + 1);
    expect(saved.headers.etag).toBe(`"${after.revision}"`);
    expect(after).toMatchObject({
      caption: "傍晚的码头 harbourdusk",
      keywords: ["台风", "码头"],
      capturedAt: "2024-05-05T23:08:09.000Z",
      properties: { credit: "新华社", city: "广州" },
    });

    const edited = (await history(story.id)).find((action) => action.action === "edit")!;
    expect(edited).toMatchObject({ userId: editor.id, username: "edit-editor" });
    expect(edited.details.changes).toEqual([
      { field: "caption", from: "早上的码头", to: "傍晚的码头 harbourdusk" },
      { field: "keywords", from: ["台风"], to: ["台风", "码头"] },
      { field: "capturedAt", from: null, to: "2024-05-05T23:08:09.000Z" },
      { field: "properties.credit", from: null, to: "新华社" },
      { field: "properties.city", from: null, to: "广州" },
    ]);

    // The search index follows: the new caption's word finds the story, the old one no longer does.
    const found = async (text: string) =>
      (await call(editor, "GET", `/stories?libraryId=product&fulltext=${encodeURIComponent(text)}`))
        .json()
        .data.content.map((hit: { id: string }) => hit.id);
    expect(await found("harbourdusk")).toContain(story.id);
    expect(await found("早上的码头")).not.toContain(story.id);
  });

  it("refuses a save based on a stale revision with 409 and the story as it is now", async () => {
    const story = await committedStory();
    const basedOn = `"${story.revision}"`;
    const first = await edit(colleague, story.id, { title: "同事的标题" }, { "if-match": basedOn });
    expect(first.statusCode, first.body).toBe(200);

    const stale = await edit(editor, story.id, { title: "我的标题" }, { "if-match": basedOn });
    expect(stale.statusCode).toBe(409);
    const body = stale.json();
    expect(body).toMatchObject({ code: 409, error: "stale_revision", msgCode: "story.stale" });
    expect(body.msg).toContain("changed by someone else");
    expect(body.data).toMatchObject({ id: story.id, title: "同事的标题", revision: story.revision + 1 });
    expect(stale.headers.etag).toBe(`"${story.revision + 1}"`);

    // Nothing of the stale save was written, nor recorded.
    const now = (await call(editor, "GET", `/stories/product/${story.id}`)).json().data as StoryView;
    expect(now.title).toBe("同事的标题");
    const edits = (await history(story.id)).filter((action) => action.action === "edit");
    expect(edits.map((action) => action.username)).toEqual(["edit-colleague"]);

    // Saving deliberately over it: based on the revision the 409 gave, or without If-Match.
    const over = await edit(editor, story.id, { title: "我的标题" }, { "if-match": `"${body.data.revision}"` });
    expect(over.statusCode, over.body).toBe(200);
    const compatible = await edit(editor, story.id, { title: "没有 If-Match" });
    expect(compatible.statusCode, compatible.body).toBe(200);
    expect(compatible.json().data.revision).toBe(story.revision + 3);
    const weak = await edit(editor, story.id, { title: "weak" }, { "if-match": `W/"${story.revision + 3}"` });
    expect(weak.statusCode, weak.body).toBe(200);
  });

  it("names the field of an invalid value, and an If-Match that is not an ETag", async () => {
    const story = await committedStory();
    const tooLong = await edit(editor, story.id, { title: "x".repeat(501) });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().msg).toContain("body.title");
    const badTime = await edit(editor, story.id, { capturedAt: "yesterday" });
    expect(badTime.statusCode).toBe(400);
    expect(badTime.json().msg).toContain("body.capturedAt");
    const badKeyword = await edit(editor, story.id, { keywords: ["ok", ""] });
    expect(badKeyword.statusCode).toBe(400);
    expect(badKeyword.json().msg).toContain("body.keywords.1");
    const badTag = await edit(editor, story.id, { title: "t" }, { "if-match": "3" });
    expect(badTag.statusCode).toBe(400);
    expect(badTag.json()).toMatchObject({ error: "invalid_if_match" });
    expect(badTag.json().msg).toContain("If-Match");
  });

  it("refuses a viewer, whose story stays as it was", async () => {
    const story = await committedStory();
    const refused = await edit(viewer, story.id, { caption: "不该改" }, { "if-match": `"${story.revision}"` });
    expect(refused.statusCode).toBe(403);
    const now = (await call(editor, "GET", `/stories/product/${story.id}`)).json().data as StoryView;
    expect(now).toMatchObject({ caption: "早上的码头", revision: story.revision });
  });
});
