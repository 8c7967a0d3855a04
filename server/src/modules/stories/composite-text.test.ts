import { beforeAll, expect, it } from "vitest";
import { describeEachDialect } from "../../test/dialects.js";
import type { TestPrincipal } from "../../test/principals.js";
import { putThumbnail } from "../../test/stories-app.js";
import { useShareLinks } from "../shares/shares.test-support.js";

type Doc = { type: "doc"; content: object[] };
const doc = (...content: object[]): Doc => ({ type: "doc", content });
const para = (...content: object[]) => ({ type: "paragraph", content });
const text = (value: string, marks?: object[]) => ({ type: "text", text: value, ...(marks ? { marks } : {}) });
const member = (storyId: string) => ({ type: "member", attrs: { storyId } });

/**
 * Composites as manuscripts (issue 15): the text on a composite's create and
 * edit, rebuilt from the whitelist, its HTML and parts, its words in the
 * search index, and the share visitor's parts.
 */
describeEachDialect("composite texts", (dialect) => {
  const { ctx, call, people, visitor, photo, share } = useShareLinks(dialect);
  let owner: TestPrincipal;
  let a: { id: string; libraryId: string };
  let b: { id: string; libraryId: string };

  beforeAll(async () => {
    owner = people.owner;
    a = await photo(owner, { title: "成员甲" });
    b = await photo(owner, { title: "成员乙" });
    await putThumbnail(ctx(), a.id, `renditions/${a.id}/thumb`, "thumb bytes");
  });

  const members = () => [
    { libraryId: a.libraryId, storyId: a.id },
    { libraryId: b.libraryId, storyId: b.id },
  ];

  async function composite(body: object) {
    const response = await call(owner, "POST", "/workflow-story-create/composite", {
      libraryId: "product",
      title: "专题",
      ...body,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as { id: string; revision: number };
  }

  const readText = async (id: string) => {
    const response = await call(owner, "GET", `/stories/product/${id}/text`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as {
      doc: Doc | null;
      html: string;
      parts: ({ kind: "html"; html: string } | { kind: "member"; storyId: string })[];
      members: { storyId: string; libraryId: string; type: string; title: string; thumbnailUrl: string | null }[];
    };
  };

  it("rebuilds the text from the whitelist: unknown nodes, unsafe links and attributes go; typed markup stays text", async () => {
    const made = await composite({
      members: members(),
      text: doc(
        para(text("<b>不是粗体</b>")),
        { type: "script", content: [text("alert(1)")] },
        { type: "iframe", attrs: { src: "https://evil.example/" } },
        { type: "paragraph", attrs: { onclick: "steal()", style: "color:red" }, content: [text("点我")] },
        para(text("坏链接", [{ type: "link", attrs: { href: "javascript:alert(2)" } }])),
        para(text("好链接", [{ type: "link", attrs: { href: "https://example.com/?a=1&b=2", onclick: "x()" } }])),
        para(text("粗", [{ type: "bold" }, { type: "blink" }])),
        { type: "heading", attrs: { level: 9, id: "x" }, content: [text("标题")] },
      ),
    });
    const got = await readText(made.id);
    expect(got.html).toBe(
      "<p>&lt;b&gt;不是粗体&lt;/b&gt;</p>" +
        "<p>点我</p>" +
        "<p>坏链接</p>" +
        '<p><a href="https://example.com/?a=1&amp;b=2" rel="noopener noreferrer nofollow" target="_blank">好链接</a></p>' +
        "<p><strong>粗</strong></p>" +
        "<h1>标题</h1>",
    );
    const stored = JSON.stringify(got.doc);
    for (const banned of ["script", "alert", "iframe", "onclick", "style", "javascript", "blink", "evil"]) {
      expect(stored).not.toContain(banned);
      expect(got.html).not.toContain(banned);
    }
    expect(got.doc?.content[0]).toEqual(para(text("<b>不是粗体</b>")));
  });

  it("keeps each node where the editor's schema allows it: a member inside a paragraph cannot split it", async () => {
    const made = await composite({
      members: members(),
      text: doc(
        para(text("前"), member(a.id), text("后"), para(text("套"))),
        { type: "bulletList", content: [para(text("不是列表项"))] },
        { type: "bulletList", content: [{ type: "listItem", content: [text("裸")] }] },
        { type: "blockquote", content: [] },
        text("顶层文字"),
      ),
    });
    const got = await readText(made.id);
    expect(got.parts).toEqual([{ kind: "html", html: "<p>前后</p><ul><li><p></p></li></ul>" }]);
    expect(got.doc?.content).toEqual([
      para(text("前"), text("后")),
      { type: "bulletList", content: [{ type: "listItem", content: [{ type: "paragraph" }] }] },
    ]);
  });

  it("refuses an oversize or too deep text, a member node of a non-member, and a text on a photo, naming text", async () => {
    const refused = async (response: Awaited<ReturnType<typeof call>>) => {
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().msg).toMatch(/^text/);
    };
    await refused(
      await call(owner, "POST", "/workflow-story-create/composite", {
        libraryId: "product",
        members: members(),
        text: doc(para(text("字".repeat(200_000)))),
      }),
    );
    let deep: object = text("深");
    for (let level = 0; level < 30; level++) deep = { type: "blockquote", content: [deep] };
    await refused(
      await call(owner, "POST", "/workflow-story-create/composite", {
        libraryId: "product",
        members: members(),
        text: doc(deep),
      }),
    );
    const made = await composite({ members: [{ libraryId: a.libraryId, storyId: a.id }] });
    await refused(
      await call(owner, "PUT", `/workflow-story-edit/composite/${made.id}?libraryId=product`, {
        text: doc(para(text("乙不是成员")), member(b.id)),
      }),
    );
    const onPhoto = await call(owner, "PUT", `/workflow-story-edit/photo/${a.id}?libraryId=product`, {
      text: doc(para(text("照片没有正文"))),
    });
    await refused(onPhoto);
    expect(onPhoto.json().error).toBe("invalid_text");
  });

  it("gives the text's parts in order around the members, and the members with library and thumbnail", async () => {
    const made = await composite({
      members: members(),
      text: doc(para(text("开头")), member(a.id), para(text("结尾"))),
    });
    const got = await readText(made.id);
    expect(got.parts).toEqual([
      { kind: "html", html: "<p>开头</p>" },
      { kind: "member", storyId: a.id },
      { kind: "html", html: "<p>结尾</p>" },
    ]);
    expect(got.html).toBe(`<p>开头</p><div data-member-story-id="${a.id}"></div><p>结尾</p>`);
    expect(got.members.map((m) => [m.storyId, m.libraryId, m.type])).toEqual([
      [a.id, "product", "photo"],
      [b.id, "product", "photo"],
    ]);
    expect(got.members[0]!.thumbnailUrl).toEqual(expect.any(String));
    const thumb = await ctx().app.inject({ method: "GET", url: got.members[0]!.thumbnailUrl!, headers: owner.headers });
    expect(thumb.statusCode).toBe(200);

    // A photo has no text: an empty answer, not an error.
    expect(await readText(a.id)).toEqual({ doc: null, html: "", parts: [], members: [] });
  });

  it("moves the revision on with a text edit, honours If-Match (409) and records a summary in the history", async () => {
    const made = await composite({ members: members(), text: doc(para(text("初稿"))) });
    const got = await call(owner, "GET", `/stories/product/${made.id}`);
    const etag = got.headers.etag as string;
    const saved = await call(
      owner,
      "PUT",
      `/workflow-story-edit/composite/${made.id}?libraryId=product`,
      { text: doc(para(text("二稿"))) },
      { "if-match": etag },
    );
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data.revision).toBeGreaterThan(got.json().data.revision);
    expect((await readText(made.id)).html).toBe("<p>二稿</p>");
    const stale = await call(
      owner,
      "PUT",
      `/workflow-story-edit/composite/${made.id}?libraryId=product`,
      { text: doc(para(text("三稿"))) },
      { "if-match": etag },
    );
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toBe("stale_revision");
    expect((await readText(made.id)).html).toBe("<p>二稿</p>");
    const history = (await call(owner, "GET", `/story-actions?libraryId=product&storyId=${made.id}&size=50`)).json()
      .data.content as { action: string; details: { changes?: object[] } }[];
    expect(history.find((action) => action.action === "edit")?.details.changes).toContainEqual({
      field: "text",
      from: "初稿",
      to: "二稿",
    });
    // null removes the text.
    const removed = await call(owner, "PUT", `/workflow-story-edit/composite/${made.id}?libraryId=product`, {
      text: null,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await readText(made.id)).doc).toBeNull();
  });

  it("commits a composite with members (not an empty one), finds it by a word of its text, shares it with textParts", async () => {
    const empty = await composite({ title: "空专题" });
    const refused = await call(owner, "POST", "/workflow-story-create/composite/commit", {
      libraryId: "product",
      storyIds: [empty.id],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe("empty_composite");

    const made = await composite({
      members: members(),
      text: doc(para(text("鲸落")), member(a.id), para(text("harbourwhale story"))),
    });
    const committed = await call(owner, "POST", "/workflow-story-create/composite/commit", {
      libraryId: "product",
      storyIds: [made.id],
      metadata: { properties: { storyLevel: "normal" } },
    });
    expect(committed.statusCode, committed.body).toBe(200);
    expect(committed.json().data[0]).toMatchObject({ id: made.id, status: "committed", type: "composite" });

    const found = async (word: string) =>
      (await call(owner, "GET", `/stories?fulltext=${encodeURIComponent(word)}&size=50`))
        .json()
        .data.content.map((hit: { id: string }) => hit.id);
    expect(await found("鲸落")).toContain(made.id);
    expect(await found("harbourwhale")).toContain(made.id);

    const link = await share(owner, { target: { kind: "story", libraryId: "product", storyId: made.id } });
    const guest = visitor();
    guest.session.token = link.token;
    const opened = await guest.open();
    expect(opened.statusCode, opened.body).toBe(200);
    const shown = opened.json().data.stories[0] as {
      storyId: string;
      members: { storyId: string }[];
      textParts: object[];
    };
    expect(shown.storyId).toBe(made.id);
    expect(shown.members.map((m) => m.storyId)).toEqual([a.id, b.id]);
    expect(shown.textParts).toEqual([
      { kind: "html", html: "<p>鲸落</p>" },
      { kind: "member", storyId: a.id },
      { kind: "html", html: "<p>harbourwhale story</p>" },
    ]);
  });
});
