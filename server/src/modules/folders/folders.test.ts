import { randomUUID } from "node:crypto";
import { beforeAll, expect, it } from "vitest";
import { API_PREFIX } from "../../http/error-handler.js";
import { describeEachDialect, useTestApp } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { storyRow } from "../../test/stories-app.js";
import { buildSearch } from "../search/search.compose.js";
import { StoriesRepository } from "../stories/stories.repository.js";

describeEachDialect("libraries and folders", (dialect) => {
  const ctx = useTestApp(dialect);
  /** An editor who also holds the manage level on product and material (folders need it). */
  let editor: TestPrincipal;
  /** An editor with the editor role's own grant: write on every library. */
  let writer: TestPrincipal;
  let viewer: TestPrincipal;
  let contributor: TestPrincipal;

  const grant = (userId: string, libraryId: string, level: "read" | "write" | "manage") =>
    ctx()
      .db.kysely.insertInto("library_grants")
      .values({
        id: randomUUID(),
        library_id: libraryId,
        role_id: null,
        user_id: userId,
        level,
        created_at: new Date().toISOString(),
      })
      .execute();

  beforeAll(async () => {
    editor = await createPrincipal(ctx().db, { username: "folder-editor", roleId: "editor" });
    writer = await createPrincipal(ctx().db, { username: "folder-writer", roleId: "editor" });
    await grant(editor.id, "product", "manage");
    await grant(editor.id, "material", "manage");
    viewer = await createPrincipal(ctx().db, { username: "folder-viewer", roleId: "viewer" });
    contributor = await createPrincipal(ctx().db, { username: "folder-contributor", roleId: "contributor" });
  });

  const call = (who: TestPrincipal, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
    ctx().app.inject({ method, url: `${API_PREFIX}${url}`, headers: who.headers, payload });

  it("lists only the libraries the user can read, with their level", async () => {
    const all = (await call(viewer, "GET", "/libraries")).json().data as { id: string; name: string; level: string }[];
    expect(all.map((library) => library.id)).toEqual(["product", "material", "personal", "department", "publish"]);
    expect(all[0]).toMatchObject({ name: "成品库", kind: "default", level: "read" });
    const some = (await call(contributor, "GET", "/libraries")).json().data as { id: string; level: string }[];
    expect(some.map((library) => [library.id, library.level])).toEqual([
      ["product", "write"],
      ["material", "write"],
    ]);
    expect((await call(contributor, "GET", "/libraries/personal")).statusCode).toBe(404);
    expect((await call(contributor, "GET", "/libraries/personal/folders")).statusCode).toBe(404);
  });

  it("creates, renames, moves and deletes folders; names are unique among siblings", async () => {
    const news = await call(editor, "POST", "/libraries/product/folders", { name: "新闻" });
    expect(news.statusCode).toBe(200);
    const newsId = news.json().data.id as string;
    const sport = (await call(editor, "POST", "/libraries/product/folders", { name: "体育", parentId: newsId })).json()
      .data.id as string;
    const again = await call(editor, "POST", "/libraries/product/folders", { name: "体育", parentId: newsId });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: "folder_name_taken" });
    expect(again.json().msg).toContain("name");
    // The same name elsewhere is fine, also at the root.
    expect((await call(editor, "POST", "/libraries/product/folders", { name: "体育" })).statusCode).toBe(200);
    expect((await call(editor, "POST", "/libraries/material/folders", { name: "新闻" })).statusCode).toBe(200);

    const tree = (await call(viewer, "GET", "/libraries/product/folders")).json().data as {
      name: string;
      children: { name: string }[];
    }[];
    expect(tree.find((node) => node.name === "新闻")?.children.map((child) => child.name)).toEqual(["体育"]);

    const cycle = await call(editor, "PUT", `/libraries/product/folders/${newsId}`, { parentId: sport });
    expect(cycle.statusCode).toBe(400);
    expect(cycle.json().msg).toContain("parentId");
    const clash = await call(editor, "PUT", `/libraries/product/folders/${sport}`, { parentId: null });
    expect(clash.statusCode).toBe(409);
    const renamed = await call(editor, "PUT", `/libraries/product/folders/${sport}`, { name: "足球", parentId: null });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().data).toMatchObject({ name: "足球", parentId: null });

    const child = (await call(editor, "POST", "/libraries/product/folders", { name: "子", parentId: newsId })).json()
      .data.id as string;
    const notEmpty = await call(editor, "DELETE", `/libraries/product/folders/${newsId}`);
    expect(notEmpty.statusCode).toBe(409);
    expect(notEmpty.json().error).toBe("folder_not_empty");
    expect((await call(editor, "DELETE", `/libraries/product/folders/${child}`)).statusCode).toBe(200);
    expect((await call(editor, "DELETE", `/libraries/product/folders/${newsId}`)).statusCode).toBe(200);
    expect((await call(editor, "DELETE", `/libraries/product/folders/${newsId}`)).statusCode).toBe(404);
    // A folder of another library is not found through this one.
    expect((await call(editor, "DELETE", `/libraries/material/folders/${sport}`)).statusCode).toBe(404);
  });

  it("names the field of a validation error", async () => {
    const empty = await call(editor, "POST", "/libraries/product/folders", { name: "" });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().msg).toContain("body.name");
    const slash = await call(editor, "POST", "/libraries/product/folders", { name: "a/b" });
    expect(slash.json().msg).toContain("body.name");
    const parent = await call(editor, "POST", "/libraries/product/folders", { name: "x", parentId: randomUUID() });
    expect(parent.statusCode).toBe(404);
    expect(parent.json().msg).toContain("parentId");
  });

  it("refuses writes to a read-only library with 403 and hides unreadable ones with 404", async () => {
    // Through the API: the contributor's level on `personal` (none) may be cached from an earlier case, and a
    // grant made by the access-control service drops it on every node; one written by hand would wait for the lifetime.
    const admin = await createPrincipal(ctx().db, { username: "folder-admin", admin: true });
    const granted = await call(admin, "POST", "/library-grants", {
      libraryId: "personal",
      userId: contributor.id,
      level: "read",
    });
    expect(granted.statusCode).toBe(200);
    expect((await call(contributor, "GET", "/libraries/personal/folders")).statusCode).toBe(200);
    expect((await call(contributor, "POST", "/libraries/personal/folders", { name: "mine" })).statusCode).toBe(403);
    expect((await call(contributor, "POST", "/libraries/department/folders", { name: "mine" })).statusCode).toBe(404);
    // The viewer role lacks the story.list add permission altogether.
    expect((await call(viewer, "POST", "/libraries/product/folders", { name: "v" })).statusCode).toBe(403);
  });

  it("changes folders only with the manage level on the library; a writer still files stories", async () => {
    const made = await call(writer, "POST", "/libraries/product/folders", { name: "写者" });
    expect(made.statusCode).toBe(403);
    const folder = (await call(editor, "POST", "/libraries/product/folders", { name: "管理者" })).json().data
      .id as string;
    expect((await call(writer, "PUT", `/libraries/product/folders/${folder}`, { name: "改名" })).statusCode).toBe(403);
    expect((await call(writer, "DELETE", `/libraries/product/folders/${folder}`)).statusCode).toBe(403);
    // Reading the tree needs only read.
    const tree = (await call(viewer, "GET", "/libraries/product/folders")).json().data as { id: string }[];
    expect(tree.map((node) => node.id)).toContain(folder);
    // Manage on product is not manage on personal.
    expect((await call(editor, "POST", "/libraries/personal/folders", { name: "x" })).statusCode).toBe(403);

    // A story filed in the folder (a story edit: the write level) keeps it from being deleted.
    const storyId = randomUUID();
    const db = ctx().db;
    await new StoriesRepository(db.kysely, db.adapter, buildSearch(db).index).insertStory(
      storyRow({ id: storyId, library_id: "product", title: "filed" }),
    );
    const filed = await call(writer, "PUT", `/workflow-story-edit/photo/${storyId}?libraryId=product`, {
      folderId: folder,
    });
    expect(filed.statusCode).toBe(200);
    const held = await call(editor, "DELETE", `/libraries/product/folders/${folder}`);
    expect(held.statusCode).toBe(409);
    expect(held.json()).toMatchObject({ error: "folder_not_empty", msgCode: "folder.hasStories" });
    expect(
      (await call(writer, "PUT", `/workflow-story-edit/photo/${storyId}?libraryId=product`, { folderId: null }))
        .statusCode,
    ).toBe(200);
    expect((await call(editor, "DELETE", `/libraries/product/folders/${folder}`)).statusCode).toBe(200);
  });
});
