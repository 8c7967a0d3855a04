import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { beforeAll, expect, it } from "vitest";
import { callApi } from "../../test/api-call.js";
import { describeEachDialect } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { api, buildStoryServices, ingestOf, uploadStory, useStoriesApp } from "../../test/stories-app.js";
import { ingestTargetOf } from "../uploads/upload-metadata.js";
import { CORPUS } from "../uploads/uploads.test-support.js";

interface Keyword {
  name: string;
  useCount: number;
}

describeEachDialect("keyword use counted as stories get keywords", (dialect) => {
  const ctx = useStoriesApp(dialect);
  const call = api(ctx);
  let admin: TestPrincipal;
  let editor: TestPrincipal;

  beforeAll(async () => {
    admin = await createPrincipal(ctx().db, { username: "kw-admin", admin: true });
    editor = await createPrincipal(ctx().db, { username: "kw-editor", roleId: "editor" });
  });

  async function data<T>(response: Awaited<ReturnType<ReturnType<typeof api>>>): Promise<T> {
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as T;
  }

  it("counts keywords applied on create, upload, commit, edit and extraction, so listByOrder puts the most used first", async () => {
    const { app } = ctx();
    await callApi(app, admin, "POST", "/keyword", { name: "Storm" });

    // Create with metadata: each distinct keyword once (any case matches the catalogue's entry).
    const created = await data<{ id: string }>(
      await call(editor, "POST", "/workflow-story-create/photo", {
        libraryId: "product",
        title: "a",
        keywords: ["台风", "storm", "台风"],
      }),
    );
    // Uploads with keywords in their metadata: through the service, and through the ingest command as a tus upload's metadata.
    const uploaded = (await uploadStory(ctx(), editor, { keywords: ["台风"] })).story;
    await uploadStory(ctx(), editor, { keywords: ["台风"] });
    const sunk = await ingestOf(ctx()).ingestFile({
      source: { stream: Readable.from([fs.readFileSync(path.join(CORPUS, "jpg/Canon_40D.jpg"))]) },
      originalName: "洪水.jpg",
      userId: editor.id,
      ...ingestTargetOf({ libraryId: "product", keywords: "洪水, 台风" }),
    });

    // Commit with the form's keywords: only those a story did not have yet count.
    await data(
      await call(editor, "POST", "/workflow-story-create/photo/commit", {
        libraryId: "product",
        storyIds: [uploaded.id, sunk.storyId],
        metadata: { keywords: ["台风", "救援"] },
      }),
    );
    // Edits: the added keywords count (not "STORM", which the story has as "storm"); other edits count nothing.
    const edit = (body: object) =>
      call(editor, "PUT", `/workflow-story-edit/photo/${created.id}?libraryId=product`, body);
    await data(await edit({ keywords: ["台风", "STORM", "救援", "Rescue"] }));
    await data(await edit({ title: "renamed" }));

    // Extracted metadata fills an empty list (counted), never a list people wrote (not counted).
    const empty = await data<{ id: string }>(
      await call(editor, "POST", "/workflow-story-create/photo", { libraryId: "product", title: "b" }),
    );
    await ctx().module.stories.applyExtractedMetadata(empty.id, { keywords: ["风暴"] });
    await ctx().module.stories.applyExtractedMetadata(uploaded.id, { keywords: ["Ignored"] });

    const byUse = await callApi<Keyword[]>(app, editor, "GET", "/keyword/listByOrder?size=50");
    const counts = new Map(byUse.map((keyword) => [keyword.name, keyword.useCount]));
    expect(counts).toEqual(
      new Map([
        ["台风", 4],
        ["救援", 3],
        ["Storm", 1],
        ["洪水", 1],
        ["Rescue", 1],
        ["风暴", 1],
      ]),
    );
    expect(byUse.slice(0, 2).map((keyword) => keyword.name)).toEqual(["台风", "救援"]);
  });

  it("keeps the story's change when the count cannot be written, and reports it", async () => {
    const { db } = ctx();
    const failures: string[][] = [];
    const module = buildStoryServices(db, {
      blobs: ctx().blobs,
      jobs: ctx().app.jobs,
      keywordUse: {
        recordUse: async () => {
          throw new Error("the catalogue is unavailable");
        },
      },
      onKeywordUseError: (names) => failures.push(names),
    });
    const actor = { id: editor.id, username: editor.username, admin: false, roleId: "editor", ip: null };
    const story = await module.stories.createDraft(actor, "photo", { libraryId: "product", keywords: ["停电"] });
    expect(story.keywords).toEqual(["停电"]);
    expect(failures).toEqual([["停电"]]);
  });
});
