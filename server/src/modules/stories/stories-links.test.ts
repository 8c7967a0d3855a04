import { randomUUID } from "node:crypto";
import { beforeAll, expect, it } from "vitest";
import { describeEachDialect } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { api, putThumbnail, sha256, uploadStory, useStoriesApp } from "../../test/stories-app.js";
import { hashShareToken } from "../shares/share-tokens.js";

describeEachDialect("story lists, relations, favourites, duplicates", (dialect) => {
  const ctx = useStoriesApp(dialect);
  const call = api(ctx);
  let editor: TestPrincipal;
  let other: TestPrincipal;
  let viewer: TestPrincipal;
  let contributor: TestPrincipal;
  let manager: TestPrincipal;

  beforeAll(async () => {
    manager = await createPrincipal(ctx().db, { username: "links-manager", roleId: "administrator" });
    editor = await createPrincipal(ctx().db, { username: "links-editor", roleId: "editor" });
    other = await createPrincipal(ctx().db, { username: "links-other", roleId: "editor" });
    viewer = await createPrincipal(ctx().db, { username: "links-viewer", roleId: "viewer" });
    contributor = await createPrincipal(ctx().db, { username: "links-contributor", roleId: "contributor" });
  });

  async function committed(who: TestPrincipal, input: Parameters<typeof uploadStory>[2] = {}) {
    const { story } = await uploadStory(ctx(), who, input);
    const libraryId = input.libraryId ?? "product";
    const response = await call(who, "POST", `/workflow-story-create/${input.type ?? "photo"}/commit`, {
      libraryId,
      storyIds: [story.id],
    });
    expect(response.statusCode).toBe(200);
    return response.json().data[0] as { id: string; libraryId: string; oid: string };
  }

  it("shows half-product drafts to every reader of the library and lets writers continue them", async () => {
    const made = await call(other, "POST", "/workflow-story-create/photo", {
      libraryId: "material",
      title: "半成品 草稿",
      halfProduct: true,
    });
    expect(made.statusCode).toBe(200);
    const half = made.json().data as { id: string; status: string; halfProduct: boolean };
    expect(half).toMatchObject({ status: "draft", halfProduct: true });
    const plain = (await uploadStory(ctx(), other, { libraryId: "material" })).story;

    const listed = (await call(contributor, "GET", "/stories?libraryId=material&halfProduct=true")).json().data;
    expect(listed.content.map((story: { id: string }) => story.id)).toContain(half.id);
    expect(listed.content.map((story: { id: string }) => story.id)).not.toContain(plain.id);
    // Elsewhere others' drafts stay hidden, the half product too.
    const all = (await call(contributor, "GET", "/stories?libraryId=material")).json().data;
    expect(all.content.map((story: { id: string }) => story.id)).not.toContain(half.id);
    // A reader sees it on the list, cannot change it.
    const read = (await call(viewer, "GET", "/stories?libraryId=material&halfProduct=true")).json().data;
    expect(read.content.map((story: { id: string }) => story.id)).toContain(half.id);
    expect(
      (await call(viewer, "PUT", `/workflow-story-edit/photo/${half.id}?libraryId=material`, { caption: "x" }))
        .statusCode,
    ).toBe(403);
    // A writer (without the editors' right over others' drafts) continues the half product, not another
    // user's ordinary draft.
    const continued = await call(contributor, "PUT", `/workflow-story-edit/photo/${half.id}?libraryId=material`, {
      caption: "接着写",
    });
    expect(continued.statusCode).toBe(200);
    expect(continued.json().data.caption).toBe("接着写");
    const refused = await call(contributor, "PUT", `/workflow-story-edit/photo/${plain.id}?libraryId=material`, {
      caption: "x",
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe("draft_of_another_user");
    // Finished: committed as it stops being a half product.
    const finished = await call(contributor, "POST", "/workflow-story-create/photo/commit", {
      libraryId: "material",
      storyIds: [half.id],
      metadata: { halfProduct: false },
    });
    expect(finished.statusCode).toBe(200);
    expect(finished.json().data[0]).toMatchObject({ status: "committed", halfProduct: false });
    const after = (await call(contributor, "GET", "/stories?libraryId=material&halfProduct=true")).json().data;
    expect(after.content.map((story: { id: string }) => story.id)).not.toContain(half.id);
  });

  it("lists with filters and zero-based paging; others' drafts stay hidden", async () => {
    const folder = (await call(manager, "POST", "/libraries/department/folders", { name: "要闻" })).json().data.id;
    await committed(editor, { libraryId: "department", folderId: folder, type: "video", mime: "video/mp4" });
    const photo = await committed(editor, { libraryId: "department", folderId: folder });
    await call(editor, "PUT", `/workflow-story-edit/photo/${photo.id}?libraryId=department`, {
      title: "山竹过境",
      halfProduct: true,
    });
    const draft = (await uploadStory(ctx(), other, { libraryId: "department" })).story;

    const mine = (await call(editor, "GET", "/stories?libraryId=department")).json().data;
    expect(mine).toMatchObject({ totalElements: 2, size: 10, number: 0 });
    expect(mine.content.map((story: { id: string }) => story.id)).not.toContain(draft.id);
    const theirs = (await call(other, "GET", "/stories?libraryId=department")).json().data;
    expect(theirs.totalElements).toBe(3);

    const videos = (await call(editor, "GET", `/stories?libraryId=department&folderId=${folder}&types=VIDEO`)).json()
      .data;
    expect(videos.content.map((story: { type: string }) => story.type)).toEqual(["video"]);
    const keyword = (await call(editor, "GET", "/stories?libraryId=department&keyword=山竹")).json().data;
    expect(keyword.content.map((story: { id: string }) => story.id)).toEqual([photo.id]);
    const half = (await call(editor, "GET", "/stories?libraryId=department&halfProduct=true")).json().data;
    expect(half.content.map((story: { id: string }) => story.id)).toEqual([photo.id]);
    const pageTwo = (await call(editor, "GET", "/stories?libraryId=department&size=1&page=1")).json().data;
    expect(pageTwo).toMatchObject({ totalElements: 2, size: 1, number: 1 });
    expect(pageTwo.content).toHaveLength(1);
    const drafts = (await call(other, "GET", "/stories?libraryId=department&status=draft")).json().data;
    expect(drafts.content.map((story: { id: string }) => story.id)).toEqual([draft.id]);
    const bad = await call(editor, "GET", "/stories?types=film");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toContain("querystring.types");
    expect((await call(contributor, "GET", "/stories?libraryId=department")).statusCode).toBe(404);
    // Without a library: only what the caller can read.
    const everywhere = (await call(contributor, "GET", "/stories?size=1000")).json().data;
    expect(
      everywhere.content.every((story: { libraryId: string }) => ["product", "material"].includes(story.libraryId)),
    ).toBe(true);
  });

  it("relates stories and shows relations in both directions", async () => {
    const a = await committed(editor);
    const b = await committed(editor, { libraryId: "material" });
    const hidden = await committed(editor, { libraryId: "publish" });
    const related = await call(editor, "POST", `/stories/relation/product/${a.id}`, {
      relatedLibraryId: "material",
      relatedStoryId: b.id,
      type: "derived",
    });
    expect(related.statusCode).toBe(200);
    await call(editor, "POST", `/stories/relation/product/${a.id}`, {
      relatedLibraryId: "publish",
      relatedStoryId: hidden.id,
    });
    const twice = await call(editor, "POST", `/stories/relation/material/${b.id}`, {
      relatedLibraryId: "product",
      relatedStoryId: a.id,
      type: "derived",
    });
    expect(twice.statusCode).toBe(409);
    const self = await call(editor, "POST", `/stories/relation/product/${a.id}`, {
      relatedLibraryId: "product",
      relatedStoryId: a.id,
    });
    expect(self.statusCode).toBe(400);

    const fromB = (await call(contributor, "GET", `/stories/relation/material/${b.id}`)).json().data;
    expect(fromB).toEqual([
      expect.objectContaining({ type: "derived", direction: "incoming", story: expect.objectContaining({ id: a.id }) }),
    ]);
    // The contributor cannot read the publish library: that relation is left out.
    const fromA = (await call(contributor, "GET", `/stories/relation/product/${a.id}`)).json().data;
    expect(fromA.map((relation: { story: { id: string } }) => relation.story.id)).toEqual([b.id]);
    expect((await call(editor, "GET", `/stories/relation/product/${a.id}`)).json().data).toHaveLength(2);

    const relationId = fromB[0].id as string;
    expect((await call(editor, "DELETE", `/stories/relation/material/${b.id}/${relationId}`)).statusCode).toBe(200);
    expect((await call(editor, "GET", `/stories/relation/material/${b.id}`)).json().data).toEqual([]);
  });

  it("adds, lists and removes favourites", async () => {
    const story = await committed(editor);
    const added = await call(viewer, "POST", "/workflow-story-favorite", { libraryId: "product", storyId: story.id });
    expect(added.statusCode).toBe(200);
    expect(added.json().data).toMatchObject({ libraryId: "product", storyId: story.id, type: "photo" });
    expect(
      (await call(viewer, "POST", "/workflow-story-favorite", { libraryId: "product", storyId: story.id })).statusCode,
    ).toBe(200);
    const list = (await call(viewer, "GET", "/workflow-story-favorite?libraryId=product")).json().data;
    expect(list.totalElements).toBe(1);
    expect(list.content[0].story.id).toBe(story.id);
    expect((await call(editor, "GET", "/workflow-story-favorite")).json().data.totalElements).toBe(0);
    const wrongLibrary = await call(viewer, "POST", "/workflow-story-favorite", {
      libraryId: "material",
      storyId: story.id,
    });
    expect(wrongLibrary.statusCode).toBe(404);
    expect(wrongLibrary.json().msg).toContain("storyId");
    expect(
      (await call(viewer, "DELETE", `/workflow-story-favorite?libraryId=product&storyId=${story.id}`)).statusCode,
    ).toBe(200);
    expect(
      (await call(viewer, "DELETE", `/workflow-story-favorite?libraryId=product&storyId=${story.id}`)).statusCode,
    ).toBe(404);
    expect((await call(viewer, "GET", "/workflow-story-favorite")).json().data.totalElements).toBe(0);
    const actions = (await call(viewer, "GET", `/story-actions?libraryId=product&storyId=${story.id}`)).json().data
      .content;
    expect(actions.map((action: { action: string }) => action.action).slice(0, 2)).toEqual(["unfavorite", "favorite"]);
  });

  it("finds exact duplicates by SHA-256 and near duplicates of photos by perceptual hash", async () => {
    const bytes = `same bytes ${randomUUID()}`;
    const first = await uploadStory(ctx(), editor, { libraryId: "publish", bytes });
    const second = await uploadStory(ctx(), editor, { libraryId: "publish", bytes });
    expect(first.duplicates).toEqual([]);
    expect(second.duplicates.map((story) => story.id)).toEqual([first.story.id]);
    // Another library holds its own copy without being called a duplicate.
    expect((await uploadStory(ctx(), editor, { libraryId: "personal", bytes })).duplicates).toEqual([]);

    const near1 = (await uploadStory(ctx(), editor, { libraryId: "publish" })).story;
    const near2 = (await uploadStory(ctx(), editor, { libraryId: "publish" })).story;
    const far = (await uploadStory(ctx(), editor, { libraryId: "publish" })).story;
    await ctx().module.stories.applyExtractedMetadata(near1.id, { perceptualHash: "f0f0f0f0f0f0f0f0" });
    await ctx().module.stories.applyExtractedMetadata(near2.id, { perceptualHash: "f0f0f0f0f0f0f0f3" });
    await ctx().module.stories.applyExtractedMetadata(far.id, { perceptualHash: "0f0f0f0f0f0f0f0f" });

    const groups = (await call(editor, "GET", "/stories/repeat?libraryId=publish")).json().data as {
      kind: string;
      sha256: string | null;
      distance: number | null;
      stories: { id: string }[];
    }[];
    expect(
      groups.map((group) => [group.kind, group.sha256, group.distance, group.stories.map((story) => story.id).sort()]),
    ).toEqual([
      ["exact", sha256(bytes), null, [first.story.id, second.story.id].sort()],
      ["near", null, 2, [near1.id, near2.id].sort()],
    ]);
    const strict = (await call(editor, "GET", "/stories/repeat?libraryId=publish&distance=1")).json().data;
    expect(strict.map((group: { kind: string }) => group.kind)).toEqual(["exact"]);
    const ofOne = (await call(editor, "GET", `/stories/repeat?libraryId=publish&storyId=${far.id}&distance=16`)).json()
      .data;
    expect(ofOne).toEqual([]);
    const bySha = (await call(editor, "GET", `/stories/repeat?libraryId=publish&sha256=${sha256(bytes)}`)).json().data;
    expect(bySha[0].stories).toHaveLength(2);
    const badSha = await call(editor, "GET", "/stories/repeat?libraryId=publish&sha256=xyz");
    expect(badSha.json().msg).toContain("querystring.sha256");
  });

  it("lists my stories, counts what the user can read, and keeps the default library", async () => {
    const author = await createPrincipal(ctx().db, { username: "links-author", roleId: "contributor" });
    const mine = await committed(author, { libraryId: "material" });
    await committed(author, { libraryId: "material", type: "audio", mime: "audio/mpeg" });
    const myStories = (await call(author, "GET", "/stories/mystories/all")).json().data;
    expect(myStories.totalElements).toBe(2);
    const myPhotos = (await call(author, "GET", "/stories/mystories/material?types=photo")).json().data;
    expect(myPhotos.content.map((story: { id: string }) => story.id)).toEqual([mine.id]);
    expect((await call(author, "GET", "/stories/mystories/personal")).statusCode).toBe(404);

    const counts = async (who: TestPrincipal) => (await call(who, "GET", "/statistics/usedInfo")).json().data;
    const before = await counts(author);
    await committed(editor, { libraryId: "publish", type: "video", mime: "video/mp4" });
    await uploadStory(ctx(), editor, { libraryId: "product", type: "video" });
    expect(await counts(author)).toEqual(before);
    const everything = await counts(viewer);
    const rows = await ctx()
      .db.kysely.selectFrom("stories")
      .select(["type", (eb) => eb.fn.countAll<number>().as("count")])
      .where("status", "<>", "draft")
      .groupBy("type")
      .execute();
    const expected = { photo: 0, video: 0, audio: 0, composite: 0 } as Record<string, number>;
    for (const row of rows) expected[row.type] = Number(row.count);
    expect(everything).toEqual(expected);
    expect(before.audio).toBeGreaterThanOrEqual(1);

    expect((await call(author, "GET", "/default-library")).json().data).toEqual({
      libraryId: "product",
      folderId: null,
      path: "/frontend/product",
    });
    const folder = (await call(manager, "POST", "/libraries/material/folders", { name: "我的" })).json().data.id;
    const saved = await call(
      author,
      "POST",
      `/default-library?path=${encodeURIComponent(`/frontend/material/${folder}`)}`,
    );
    expect(saved.json().data).toEqual({
      libraryId: "material",
      folderId: folder,
      path: `/frontend/material/${folder}`,
    });
    expect((await call(author, "GET", "/default-library")).json().data.libraryId).toBe("material");
    expect((await call(author, "POST", "/default-library?path=/frontend/personal")).statusCode).toBe(404);
    expect((await call(author, "POST", `/default-library?path=/frontend/product/${folder}`)).statusCode).toBe(404);
    const form = (await call(author, "GET", "/workflow-story-create/photo")).json().data;
    expect(form).toMatchObject({ libraryId: "material", folderId: folder, folderPath: [{ id: folder, name: "我的" }] });
  });

  it("publishes committed stories and creates expiring share tokens", async () => {
    const draft = (await uploadStory(ctx(), editor, {})).story;
    expect((await call(editor, "POST", `/workflow-story-publish/product/${draft.id}`, {})).statusCode).toBe(409);
    const story = await committed(editor);
    const published = await call(editor, "POST", `/workflow-story-publish/product/${story.id}`, {
      channel: "web",
      note: "头条",
    });
    expect(published.statusCode).toBe(200);
    expect(published.json().data).toMatchObject({
      storyId: story.id,
      versionNo: 1,
      channel: "web",
      status: "published",
    });
    expect((await call(editor, "GET", `/stories/product/${story.id}`)).json().data.status).toBe("published");
    expect((await call(contributor, "POST", `/workflow-story-publish/product/${story.id}`, {})).statusCode).toBe(200);
    expect((await call(viewer, "POST", `/workflow-story-publish/product/${story.id}`, {})).statusCode).toBe(403);

    const share = await call(editor, "GET", `/workflow-story-share/story/product/${story.id}?expiresInDays=2`);
    expect(share.statusCode).toBe(200);
    const { token, expiresAt, url } = share.json().data;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url).toContain(token);
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(1.9 * 86_400_000);
    const second = (await call(editor, "GET", `/workflow-story-share/story/product/${story.id}`)).json().data.token;
    expect(second).not.toBe(token);
    const row = await ctx()
      .db.kysely.selectFrom("shares")
      .selectAll()
      .where("token_hash", "=", hashShareToken(token))
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(token);
    // What the token opens, until it expires (the visitor's side is tested in shares/).
    expect(row).toMatchObject({ kind: "story", library_id: "product", created_by: editor.id, revoked_at: null });
    expect(Date.parse(row.expires_at!)).toBe(Date.parse(expiresAt));
    const items = await ctx().db.kysely.selectFrom("share_items").selectAll().where("share_id", "=", row.id).execute();
    expect(items).toMatchObject([{ library_id: "product", story_id: story.id, position: 0 }]);
  });

  it("groups stories in a composite", async () => {
    const a = await committed(editor);
    const b = await committed(editor, { type: "video", mime: "video/mp4" });
    const created = await call(editor, "POST", "/workflow-story-create/composite", {
      libraryId: "product",
      title: "专题",
      members: [
        { libraryId: "product", storyId: b.id },
        { libraryId: "product", storyId: a.id },
      ],
    });
    expect(created.statusCode).toBe(200);
    const composite = created.json().data;
    expect(composite).toMatchObject({ type: "composite", members: [b.id, a.id] });
    const edited = await call(editor, "PUT", `/workflow-story-edit/composite/${composite.id}?libraryId=product`, {
      members: [{ libraryId: "product", storyId: a.id }],
    });
    expect(edited.json().data.members).toEqual([a.id]);

    // A member's thumbnail as the composite's cover; deleting the composite keeps the member's blob.
    await putThumbnail(ctx(), a.id, "renditions/member-thumb", "thumb bytes");
    const covered = await call(editor, "PUT", `/workflow-story-edit/composite/${composite.id}?libraryId=product`, {
      coverFrom: { storyId: a.id, role: "thumbnail" },
    });
    expect(covered.statusCode).toBe(200);
    expect(covered.json().data.coverUrl).toContain("rendition=cover");
    const cover = await call(editor, "GET", `/stories/download/product/${composite.id}?rendition=cover`);
    expect(cover.body).toBe("thumb bytes");
    expect(cover.headers["content-type"]).toBe("image/webp");
    const notMember = await call(editor, "PUT", `/workflow-story-edit/composite/${composite.id}?libraryId=product`, {
      coverFrom: { storyId: b.id, role: "thumbnail" },
    });
    expect(notMember.statusCode).toBe(400);
    expect(notMember.json().msg).toContain("coverFrom.storyId");
    expect((await call(editor, "DELETE", `/workflow-story-delete/product/${composite.id}`)).statusCode).toBe(200);
    expect(await ctx().blobs.stat("renditions/member-thumb")).not.toBeNull();
    const missing = await call(editor, "POST", "/workflow-story-create/composite", {
      libraryId: "product",
      members: [{ libraryId: "material", storyId: a.id }],
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().msg).toContain("members.0");
  });
});
