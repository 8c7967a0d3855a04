import { randomBytes, randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { beforeAll, expect, it } from "vitest";
import { callApi } from "../../test/api-call.js";
import { describeEachDialect } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { api, sha256, uploadStory, useStoriesApp } from "../../test/stories-app.js";
import { GrantsRepository } from "../access/grants.repository.js";
import { LibraryAccess } from "../access/library-access.js";
import { newOriginalKey } from "../blobs/blob-keys.js";
import { MediaUrlSigner } from "../media-urls/media-url-signer.js";
import { StoryUploadSink } from "../processing/story-upload-sink.js";
import { buildStories, PROCESS_STORIES_JOB } from "./stories.compose.js";

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
    // Uploads with keywords in their metadata: through the service and through the upload sink.
    const uploaded = (await uploadStory(ctx(), editor, { keywords: ["台风"] })).story;
    await uploadStory(ctx(), editor, { keywords: ["台风"] });
    const bytes = Buffer.from(`sink ${randomUUID()}`);
    const blobKey = newOriginalKey();
    await ctx().blobs.put(blobKey, Readable.from([bytes]));
    const sunk = (await new StoryUploadSink(ctx().module.stories, ctx().module.links).onUploadStored(
      {
        id: randomUUID(),
        userId: editor.id,
        blobKey,
        sha256: sha256(bytes),
        size: bytes.length,
        mime: "image/jpeg",
        kind: "photo",
        originalName: "洪水.jpg",
        metadata: { libraryId: "product", keywords: "洪水, 台风" },
      },
      { insertBlobRow: async () => {} },
    )) as { storyId: string };

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
    const signer = new MediaUrlSigner(randomBytes(32), 600);
    const module = buildStories({
      db,
      access: new LibraryAccess(new GrantsRepository(db)),
      blobs: ctx().blobs,
      jobs: ctx().app.jobs.queue,
      processingJob: { name: PROCESS_STORIES_JOB, run: async () => {} },
      signMediaUrl: (claims) => signer.url(claims),
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
