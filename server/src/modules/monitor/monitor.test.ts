import { randomUUID } from "node:crypto";
import { beforeAll, expect, it } from "vitest";
import { API_PREFIX } from "../../http/error-handler.js";
import { describeEachDialect, useTestApp } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { storyRow } from "../../test/stories-app.js";
import { StoryStatistics } from "../stories/story-statistics.js";
import { StorageMonitor } from "./monitor.service.js";

const STORAGE = `${API_PREFIX}/monitor/storage`;

describeEachDialect("storage monitor", (dialect) => {
  const ctx = useTestApp(dialect);
  let admin: TestPrincipal;
  let contributor: TestPrincipal;

  beforeAll(async () => {
    admin = await createPrincipal(ctx().db, { username: "storage-admin", roleId: "administrator", admin: true });
    contributor = await createPrincipal(ctx().db, { username: "storage-contributor", roleId: "contributor" });
    // Known data: a photo in two versions, a video (product), an audio (material).
    const photo = randomUUID();
    const video = randomUUID();
    const audio = randomUUID();
    await ctx()
      .db.kysely.insertInto("stories")
      .values([
        storyRow({ id: photo, library_id: "product", type: "photo", version_no: 2 }),
        storyRow({ id: video, library_id: "product", type: "video" }),
        storyRow({ id: audio, library_id: "material", type: "audio" }),
      ])
      .execute();
    const file = (storyId: string, versionNo: number, role: string, size: number, createdAt: string) => ({
      id: randomUUID(),
      story_id: storyId,
      version_no: versionNo,
      role,
      blob_key: `test/${randomUUID()}`,
      mime: "application/octet-stream",
      size,
      width: null,
      height: null,
      created_at: createdAt,
    });
    await ctx()
      .db.kysely.insertInto("story_files")
      .values([
        file(photo, 1, "original", 1000, "2026-11-20T10:00:00.000Z"),
        file(photo, 1, "thumbnail", 100, "2026-11-20T10:00:01.000Z"),
        file(photo, 2, "original", 2000, "2026-11-21T00:00:00.000Z"),
        file(photo, 2, "thumbnail", 200, "2026-11-21T08:00:00.000Z"),
        file(photo, 2, "preview", 300, "2026-11-21T08:00:00.000Z"),
        file(video, 1, "original", 5000, "2026-11-21T23:59:59.000Z"),
        file(video, 1, "proxy", 700, "2026-11-22T00:00:00.000Z"),
        file(audio, 1, "original", 400, "2026-10-01T12:00:00.000Z"),
      ])
      .execute();
  });

  it("counts bytes and files by library, story type and part, exactly", async () => {
    const response = await ctx().app.inject({ method: "GET", url: STORAGE, headers: admin.headers });
    expect(response.statusCode).toBe(200);
    const data = response.json().data;
    expect(data.totals).toEqual({
      stories: 3,
      files: 8,
      bytes: 9700,
      original: { files: 3, bytes: 7400 },
      rendition: { files: 3, bytes: 1200 },
      version: { files: 2, bytes: 1100 },
    });
    expect(data.byLibrary).toEqual([
      {
        libraryId: "product",
        libraryName: expect.any(String),
        stories: 2,
        files: 7,
        bytes: 9300,
        original: 7000,
        rendition: 1200,
        version: 1100,
        quotaBytes: null,
      },
      {
        libraryId: "material",
        libraryName: expect.any(String),
        stories: 1,
        files: 1,
        bytes: 400,
        original: 400,
        rendition: 0,
        version: 0,
        quotaBytes: null,
      },
    ]);
    expect(data.byType).toEqual([
      { type: "video", stories: 1, files: 2, bytes: 5700 },
      { type: "photo", stories: 1, files: 5, bytes: 3600 },
      { type: "audio", stories: 1, files: 1, bytes: 400 },
    ]);
    // The data directory's volume, with its space.
    expect(data.volumes[0]).toMatchObject({ name: "data", totalBytes: expect.any(Number) });
    expect(data.volumes[0].freeBytes).toBeGreaterThan(0);
    expect(data.volumes[0].freeBytes).toBeLessThanOrEqual(data.volumes[0].totalBytes);
  });

  it("adds up the files of each day (UTC) over the days asked for", async () => {
    const monitor = new StorageMonitor({
      statistics: new StoryStatistics(ctx().db),
      libraries: { find: async () => undefined },
      volumes: [],
      clock: () => Date.parse("2026-11-22T15:00:00.000Z"),
    });
    expect((await monitor.storage(3)).growth).toEqual([
      { day: "2026-11-20", files: 2, bytes: 1100 },
      { day: "2026-11-21", files: 4, bytes: 7500 },
      { day: "2026-11-22", files: 1, bytes: 700 },
    ]);
    // Two days back: the 20th is left out.
    expect((await monitor.storage(2)).growth.map((day) => day.day)).toEqual(["2026-11-21", "2026-11-22"]);
  });

  it("needs manage.monitor.storage and bounds the days", async () => {
    expect((await ctx().app.inject({ method: "GET", url: STORAGE, headers: contributor.headers })).statusCode).toBe(
      403,
    );
    expect((await ctx().app.inject({ method: "GET", url: STORAGE })).statusCode).toBe(401);
    const tooMany = await ctx().app.inject({ method: "GET", url: `${STORAGE}?days=5000`, headers: admin.headers });
    expect(tooMany.statusCode).toBe(400);
  });
});
