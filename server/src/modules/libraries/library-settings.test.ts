import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { API_PREFIX } from "../../http/error-handler.js";
import { describeEachDialect } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { ingestOf, useStoriesApp } from "../../test/stories-app.js";
import { CORPUS } from "../uploads/uploads.test-support.js";

const jpeg = fs.readFileSync(path.join(CORPUS, "jpg/Canon_40D.jpg"));

/** /manage/setting/library through the API, and what the settings do to new stories (the real ingest command). */
describeEachDialect("library settings", (dialect) => {
  const ctx = useStoriesApp(dialect);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "dams-library-settings-"));
  let admin: TestPrincipal;
  let editor: TestPrincipal;
  let viewer: TestPrincipal;

  beforeAll(async () => {
    admin = await createPrincipal(ctx().db, { username: "libset-admin", roleId: "administrator", admin: true });
    editor = await createPrincipal(ctx().db, { username: "libset-editor", roleId: "editor" });
    viewer = await createPrincipal(ctx().db, { username: "libset-viewer", roleId: "viewer" });
  });
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  const call = (who: TestPrincipal, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
    ctx().app.inject({ method, url: `${API_PREFIX}${url}`, headers: who.headers, payload });
  const auditOf = (libraryId: string) =>
    ctx()
      .db.kysely.selectFrom("audit_log")
      .select(["action", "actor_name"])
      .where("target_type", "=", "library")
      .where("target_id", "=", libraryId)
      .where("result", "=", "ok")
      .orderBy("id")
      .execute();
  const ingestPhoto = (libraryId: string, folderId?: string) => {
    const file = path.join(fs.mkdtempSync(path.join(scratch, "in-")), "photo.jpg");
    fs.writeFileSync(file, jpeg);
    return ingestOf(ctx()).ingestFile({
      source: { file },
      originalName: "photo.jpg",
      userId: editor.id,
      libraryId,
      ...(folderId ? { folderId } : {}),
    });
  };

  it("creates and edits a library; its code is unique; each change is in the operation log", async () => {
    const made = await call(admin, "POST", "/library-settings", {
      id: "sports",
      name: "体育库",
      description: "赛事图片",
      storyTypes: ["photo", "video", "photo"],
    });
    expect(made.statusCode).toBe(200);
    expect(made.json().data).toMatchObject({
      id: "sports",
      name: "体育库",
      kind: "department",
      storyTypes: ["photo", "video"],
      storyCount: 0,
      archivedAt: null,
      builtIn: false,
    });
    const taken = await call(admin, "POST", "/library-settings", { id: "sports", name: "again" });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ error: "library_code_taken" });
    expect((await call(admin, "POST", "/library-settings", { id: "bad code", name: "x" })).statusCode).toBe(400);

    // Administrators read every library at once; the new one is among them.
    expect((await call(admin, "GET", "/libraries/sports")).statusCode).toBe(200);
    const folder = (await call(admin, "POST", "/libraries/sports/folders", { name: "足球" })).json().data.id as string;
    const edited = await call(admin, "PUT", "/library-settings/sports", {
      name: "体育图片库",
      defaultFolderId: folder,
      storyTypes: ["photo"],
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().data).toMatchObject({
      name: "体育图片库",
      defaultFolderId: folder,
      defaultFolderName: "足球",
    });
    const foreign = (await call(admin, "POST", "/libraries/product/folders", { name: "别处" })).json().data
      .id as string;
    const wrongFolder = await call(admin, "PUT", "/library-settings/sports", { name: "x", defaultFolderId: foreign });
    expect(wrongFolder.statusCode).toBe(404);
    expect(wrongFolder.json().msg).toContain("defaultFolderId");
    const bucket = await call(admin, "PUT", "/library-settings/sports", { name: "x", bucketId: "nowhere" });
    expect(bucket.statusCode).toBe(400);

    const listed = await call(admin, "GET", "/library-settings?keyword=SPORT&size=5");
    expect(listed.json().data).toMatchObject({ totalElements: 1, content: [{ id: "sports" }] });
    expect(await auditOf("sports")).toEqual([
      { action: "library.create", actor_name: "libset-admin" },
      { action: "library.edit", actor_name: "libset-admin" },
    ]);
  });

  it("refuses everyone without the library settings permission", async () => {
    for (const who of [editor, viewer]) {
      expect((await call(who, "GET", "/library-settings")).statusCode).toBe(403);
      expect((await call(who, "POST", "/library-settings", { id: "nope", name: "nope" })).statusCode).toBe(403);
      expect((await call(who, "DELETE", "/library-settings/product")).statusCode).toBe(403);
    }
  });

  it("files a new story in the library's default folder and refuses a type it does not take", async () => {
    await call(admin, "POST", "/library-settings", { id: "stills", name: "图片库", storyTypes: ["photo"] });
    const folder = (await call(admin, "POST", "/libraries/stills/folders", { name: "默认" })).json().data.id as string;
    await call(admin, "PUT", "/library-settings/stills", {
      name: "图片库",
      storyTypes: ["photo"],
      defaultFolderId: folder,
    });
    const photo = await ingestPhoto("stills");
    const row = await ctx()
      .db.kysely.selectFrom("stories")
      .select(["folder_id"])
      .where("id", "=", photo.storyId)
      .executeTakeFirstOrThrow();
    expect(row.folder_id).toBe(folder);

    await call(admin, "PUT", "/library-settings/stills", { name: "图片库", storyTypes: ["video"] });
    await expect(ingestPhoto("stills")).rejects.toMatchObject({ code: "type_not_allowed" });
    const originals: string[] = [];
    for await (const key of ctx().blobs.list("originals/")) originals.push(key);
    expect(originals).toHaveLength(1);
  });

  it("archives a library: readable, no new stories, no edits; restores it", async () => {
    await call(admin, "POST", "/library-settings", { id: "old-news", name: "旧闻库" });
    const folder = (await call(admin, "POST", "/libraries/old-news/folders", { name: "2019" })).json().data
      .id as string;
    const archived = await call(admin, "POST", "/library-settings/old-news/archive");
    expect(archived.json().data.archivedAt).not.toBeNull();
    expect((await call(editor, "GET", "/libraries/old-news/folders")).statusCode).toBe(200);
    const write = await call(admin, "POST", "/libraries/old-news/folders", { name: "2020" });
    expect(write.statusCode).toBe(403);
    expect(write.json()).toMatchObject({ error: "library_archived" });
    expect((await call(admin, "DELETE", `/libraries/old-news/folders/${folder}`)).statusCode).toBe(403);
    await expect(ingestPhoto("old-news")).rejects.toMatchObject({ code: "library_archived" });
    const listed = (await call(admin, "GET", "/library-settings?archived=true")).json().data.content;
    expect(listed.map((library: { id: string }) => library.id)).toEqual(["old-news"]);

    await call(admin, "POST", "/library-settings/old-news/restore");
    expect((await call(admin, "POST", "/libraries/old-news/folders", { name: "2020" })).statusCode).toBe(200);
    expect((await auditOf("old-news")).map((entry) => entry.action)).toEqual([
      "library.create",
      "library.archive",
      "library.restore",
    ]);
    const builtIn = await call(admin, "POST", "/library-settings/product/archive");
    expect(builtIn.statusCode).toBe(409);
  });

  it("refuses to delete a library with stories, naming the count; deletes an empty one with its folders", async () => {
    await call(admin, "POST", "/library-settings", { id: "full", name: "满库" });
    await ingestPhoto("full");
    await ingestPhoto("full");
    const refused = await call(admin, "DELETE", "/library-settings/full");
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      error: "library_not_empty",
      msgCode: "library.hasStories",
      msgParams: { count: 2, name: "满库" },
    });
    expect(refused.json().msg).toContain("2 stories");

    await call(admin, "POST", "/library-settings", { id: "empty", name: "空库" });
    await call(admin, "POST", "/libraries/empty/folders", { name: "a" });
    const deleted = await call(admin, "DELETE", "/library-settings/empty");
    expect(deleted.statusCode).toBe(200);
    expect((await call(admin, "GET", "/libraries/empty")).statusCode).toBe(404);
    const folders = await ctx()
      .db.kysely.selectFrom("folders")
      .select("id")
      .where("library_id", "=", "empty")
      .execute();
    expect(folders).toEqual([]);
    expect((await auditOf("empty")).map((entry) => entry.action)).toEqual(["library.create", "library.delete"]);
    expect((await call(admin, "DELETE", "/library-settings/material")).statusCode).toBe(409);
  });
});
