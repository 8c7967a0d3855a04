import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDialect } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { type StoriesTestContext, useStoriesApp } from "../../test/stories-app.js";
import { BlobsRepository } from "../blobs/blobs.repository.js";
import { BlobsService } from "../blobs/blobs.service.js";
import { buildIngest } from "../ingest/ingest.compose.js";
import { StoryStatistics } from "../stories/story-statistics.js";
import { CORPUS } from "../uploads/uploads.test-support.js";
import { LibraryQuotaExceeded, LibraryQuotas } from "./library-quotas.js";
import { BUILT_IN_TARGET } from "./target-stores.js";

const jpeg = fs.readFileSync(path.join(CORPUS, "jpg/Canon_40D.jpg"));
const LIBRARY = "material";

/**
 * Two uploads finishing together in one library, with room for one of them
 * only: both pass the early (unlocked) check, then exactly one is stored —
 * the check that counts is made in the story's transaction, the library's
 * quota locked (PostgreSQL's row lock; SQLite's transactions take turns).
 */
describeEachDialect("quotas per library: uploads finishing together", (dialect) => {
  const ctx = useStoriesApp(dialect);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "dams-quota-race-"));
  let editor: TestPrincipal;

  beforeAll(async () => {
    editor = await createPrincipal(ctx().db, { username: "quota-race-editor", roleId: "editor" });
  });
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  /** The ingest as app.ts builds it, with a placement that holds each file until `together` of them got there. */
  const ingestHeldUntil = (c: StoriesTestContext, together: number) => {
    let arrived = 0;
    let release!: () => void;
    const all = new Promise<void>((resolve) => {
      release = resolve;
    });
    const statistics = new StoryStatistics(c.db);
    const quota = new LibraryQuotas({
      db: c.db,
      audit: undefined as never,
      libraries: () => undefined as never,
      blobs: () => statistics,
    });
    const ingest = buildIngest({
      db: c.db,
      stories: c.module.stories,
      defaultLibraryOf: async () => LIBRARY,
      newStoryRules: c.module.librarySettings,
      blobs: c.blobs,
      blobRegistry: new BlobsService(new BlobsRepository(c.db)),
      quota,
      // After the early check, before the bytes are stored: every upload has passed it when they go on.
      placement: {
        placeNewOriginal: async () => {
          arrived += 1;
          if (arrived === together) release();
          await all;
          return BUILT_IN_TARGET;
        },
        settle: async () => {},
      },
      workDir: path.join(c.dataDir, "tmp", "ingest"),
    });
    return { ingest, statistics };
  };
  const localFile = () => {
    const file = path.join(fs.mkdtempSync(path.join(scratch, "in-")), "photo.jpg");
    fs.writeFileSync(file, jpeg);
    return file;
  };
  const originals = async () => {
    const keys: string[] = [];
    for await (const key of ctx().blobs.list("originals/")) keys.push(key);
    return keys.length;
  };

  it("stores exactly one of two files that fit only one at a time", async () => {
    await ctx()
      .db.kysely.insertInto("library_quotas")
      .values({
        library_id: LIBRARY,
        quota_bytes: Math.floor(jpeg.length * 1.5),
        updated_by: "test",
        updated_at: new Date().toISOString(),
      })
      .execute();
    const { ingest, statistics } = ingestHeldUntil(ctx(), 2);
    const before = await originals();
    const results = await Promise.allSettled(
      [0, 1].map(() =>
        ingest.ingestFile({ source: { file: localFile() }, originalName: "photo.jpg", userId: editor.id }),
      ),
    );
    const stored = results.filter((result) => result.status === "fulfilled");
    const refused = results.filter((result) => result.status === "rejected");
    expect(stored).toHaveLength(1);
    expect(refused).toHaveLength(1);
    const reason = (refused[0] as PromiseRejectedResult).reason;
    expect(reason).toBeInstanceOf(LibraryQuotaExceeded);
    expect(reason).toMatchObject({ status: 413, code: "library_quota_exceeded" });
    expect(String(reason.message)).toContain(`${jpeg.length} of ${Math.floor(jpeg.length * 1.5)} bytes are used`);
    expect(await statistics.libraryBytes(LIBRARY)).toBe(jpeg.length);
    // The refused file's bytes are gone; its story was never written.
    expect(await originals()).toBe(before + 1);
    const stories = await ctx()
      .db.kysely.selectFrom("stories")
      .select("id")
      .where("library_id", "=", LIBRARY)
      .where("created_by", "=", editor.id)
      .execute();
    expect(stories).toHaveLength(1);
  });
});
