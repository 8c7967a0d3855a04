import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, expect, it } from "vitest";
import { RefusedFileType } from "../../media/sniff.js";
import { describeEachDialect } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { ingestOf, processingJobsFor, sha256, useStoriesApp } from "../../test/stories-app.js";
import { BlobsRepository } from "../blobs/blobs.repository.js";
import { CORPUS } from "../uploads/uploads.test-support.js";
import { IngestTypeMismatch } from "./ingest.service.js";

const jpeg = fs.readFileSync(path.join(CORPUS, "jpg/Canon_40D.jpg"));
const html = Buffer.from("<!DOCTYPE html><html><body>not a picture</body></html>");

/**
 * The one ingest command on real parts: the stories services, the durable
 * queue (its job is only enqueued here), the local blob store and both
 * databases. The callers' own tests (tus, URL fetch, image editor) run it
 * end to end.
 */
describeEachDialect("ingest: a file becomes a story", (dialect) => {
  const ctx = useStoriesApp(dialect);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "dams-ingest-cmd-"));
  let editor: TestPrincipal;

  beforeAll(async () => {
    editor = await createPrincipal(ctx().db, { username: "ingest-cmd-editor", roleId: "editor" });
  });
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  const ingest = () => ingestOf(ctx());
  /** A copy of `bytes` on the local disk, as a caller would hand it over. */
  const localFile = (bytes: Buffer, name = "photo.jpg") => {
    const file = path.join(fs.mkdtempSync(path.join(scratch, "in-")), name);
    fs.writeFileSync(file, bytes);
    return file;
  };
  const originals = async () => {
    const keys: string[] = [];
    for await (const key of ctx().blobs.list("originals/")) keys.push(key);
    return keys.sort();
  };
  const storyRow = (id: string) =>
    ctx().db.kysely.selectFrom("stories").selectAll().where("id", "=", id).executeTakeFirst();

  it("moves a local file into the store and makes a draft in the library and folder asked for, its job queued", async () => {
    const file = localFile(jpeg);
    const made = await ingest().ingestFile({
      source: { file },
      originalName: "台风 Canon.jpg",
      declaredType: "photo",
      userId: editor.id,
      libraryId: "material",
      metadata: { caption: "landfall", keywords: ["台风"], title: undefined },
    });
    expect(made).toMatchObject({ libraryId: "material", versionNo: 1, duplicates: [], repeated: false });
    expect(made.blob).toMatchObject({ sha256: sha256(jpeg), size: jpeg.length, mime: "image/jpeg", kind: "photo" });
    expect(fs.existsSync(file)).toBe(false);
    expect(await ctx().blobs.stat(made.blob.key)).toMatchObject({ size: jpeg.length });
    expect(await new BlobsRepository(ctx().db).find(made.blob.key)).toMatchObject({
      original_name: "台风 Canon.jpg",
      created_by: editor.id,
    });
    expect(await storyRow(made.storyId)).toMatchObject({
      status: "draft",
      title: "台风 Canon",
      caption: "landfall",
      processing_state: "queued",
      created_by: editor.id,
    });
    expect(await processingJobsFor(ctx(), made.storyId)).toEqual([
      { id: expect.any(String), state: "queued", ids: [made.storyId] },
    ]);
  });

  it("hashes a stream as it spools it, names the file by its content, goes to the user's default library", async () => {
    const made = await ingest().ingestFile({
      source: { stream: Readable.from([jpeg.subarray(0, 1000), jpeg.subarray(1000)]) },
      originalName: (content) => `edited.${content.extension}`,
      userId: editor.id,
    });
    expect(made.blob).toMatchObject({ sha256: sha256(jpeg), size: jpeg.length, originalName: "edited.jpg" });
    const library = (await ctx().module.settings.defaultLibraryFor(editor.id)).libraryId;
    expect(made.libraryId).toBe(library);
    // The same bytes in the same library: reported, both kept.
    const again = await ingest().ingestFile({
      source: { file: localFile(jpeg) },
      originalName: "b.jpg",
      userId: editor.id,
    });
    expect(again.duplicates.map((duplicate) => duplicate.storyId)).toContain(made.storyId);
    expect(fs.readdirSync(path.join(ctx().dataDir, "tmp", "ingest"))).toEqual([]);
  });

  it("makes a new version of a draft, pointing at the previous one, processed at once", async () => {
    const first = await ingest().ingestFile({
      source: { file: localFile(jpeg) },
      originalName: "v1.jpg",
      userId: editor.id,
      libraryId: "product",
    });
    const before = (await storyRow(first.storyId))!;
    const second = await ingest().ingestFile({
      source: { file: localFile(jpeg) },
      originalName: "v2.jpg",
      userId: editor.id,
      asNewVersionOf: { libraryId: "product", storyId: first.storyId, note: "re-rendered" },
    });
    expect(second).toMatchObject({ libraryId: "product", storyId: first.storyId, versionNo: 2, duplicates: [] });
    const after = (await storyRow(first.storyId))!;
    expect(ctx().db.adapter.readJson(after.properties)).toMatchObject({ lastVersion: before.oid });
    expect(after).toMatchObject({ original_name: "v2.jpg", processing_state: "queued" });
    expect((await processingJobsFor(ctx(), first.storyId)).length).toBe(2);
  });

  it("refuses content of another kind than declared, or outside the allow-list, before storing anything", async () => {
    const before = await originals();
    const declared = localFile(jpeg);
    const mismatch = await ingest()
      .ingestFile({ source: { file: declared }, originalName: "clip.mp4", declaredType: "video", userId: editor.id })
      .catch((error: unknown) => error);
    expect(mismatch).toBeInstanceOf(IngestTypeMismatch);
    expect(mismatch).toMatchObject({ status: 415, message: "a video was expected, but the file is image/jpeg" });
    expect(fs.existsSync(declared)).toBe(true);
    const refused = await ingest()
      .ingestFile({ source: { file: localFile(html, "x.jpg") }, originalName: "x.jpg", userId: editor.id })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RefusedFileType);
    expect(await originals()).toEqual(before);
  });

  it("rolls everything back when the transaction fails: no story, no blob row, the blob deleted", async () => {
    const before = await originals();
    let storyId = "";
    const failure = await ingest()
      .ingestFile({
        source: { file: localFile(jpeg) },
        originalName: "rolled-back.jpg",
        userId: editor.id,
        libraryId: "product",
        withinTransaction: async (_trx, story) => {
          storyId = story.id;
          throw new Error("the caller's own row could not be written (test)");
        },
      })
      .catch((error: unknown) => error);
    expect((failure as Error).message).toBe("the caller's own row could not be written (test)");
    expect(storyId).not.toBe("");
    expect(await storyRow(storyId)).toBeUndefined();
    expect(await processingJobsFor(ctx(), storyId)).toEqual([]);
    expect(await originals()).toEqual(before);
    // A library the user cannot write: refused after the move, the blob deleted too.
    const contributor = await createPrincipal(ctx().db, { username: "ingest-cmd-contributor", roleId: "contributor" });
    const forbidden = await ingest()
      .ingestFile({
        source: { file: localFile(jpeg) },
        originalName: "x.jpg",
        userId: contributor.id,
        libraryId: "department",
      })
      .catch((error: unknown) => error);
    expect(forbidden).toMatchObject({ status: expect.any(Number) });
    expect([403, 404]).toContain((forbidden as { status: number }).status);
    expect(await originals()).toEqual(before);
  });

  it("makes one story per ingest key: a retried call, and two calls at once, get the first story back", async () => {
    const key = `test:${Date.now()}`;
    const first = await ingest().ingestFile({
      source: { file: localFile(jpeg) },
      originalName: "once.jpg",
      userId: editor.id,
      ingestKey: key,
    });
    const retried = localFile(jpeg);
    const again = await ingest().ingestFile({
      source: { file: retried },
      originalName: "once.jpg",
      userId: editor.id,
      ingestKey: key,
    });
    expect(again).toEqual({ ...first, duplicates: [], repeated: true });
    expect(fs.existsSync(retried)).toBe(false);

    const before = await originals();
    const raceKey = `${key}:race`;
    const racing = await Promise.all(
      [1, 2].map(() =>
        ingest().ingestFile({
          source: { file: localFile(jpeg) },
          originalName: "race.jpg",
          userId: editor.id,
          ingestKey: raceKey,
        }),
      ),
    );
    expect(racing[0]!.storyId).toBe(racing[1]!.storyId);
    expect(racing.map((made) => made.repeated).sort()).toEqual([false, true]);
    // One original more: the loser's blob was deleted again.
    expect((await originals()).length).toBe(before.length + 1);
    const rows = await ctx()
      .db.kysely.selectFrom("stories")
      .select("id")
      .where("original_name", "=", "race.jpg")
      .execute();
    expect(rows).toHaveLength(1);
    // The key goes with its story.
    await ctx().module.stories.delete(
      { ...editor, admin: false, roleId: "editor", ip: null },
      first.libraryId,
      first.storyId,
    );
    const afterDelete = await ingest().ingestFile({
      source: { file: localFile(jpeg) },
      originalName: "once.jpg",
      userId: editor.id,
      ingestKey: key,
    });
    expect(afterDelete.repeated).toBe(false);
    expect(afterDelete.storyId).not.toBe(first.storyId);
  });
});
