import { randomUUID } from "node:crypto";
import { beforeAll, expect, it } from "vitest";
import { API_PREFIX } from "../../http/error-handler.js";
import { describeEachDialect, useTestApp } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { storyActionRow, storyRow } from "../../test/stories-app.js";
import { StoryStatistics } from "../stories/story-statistics.js";
import { DataMonitor } from "./data-monitor.service.js";

const DATA = `${API_PREFIX}/monitor/data`;

describeEachDialect("data monitor", (dialect) => {
  const ctx = useTestApp(dialect);
  let admin: TestPrincipal;
  let contributor: TestPrincipal;

  beforeAll(async () => {
    admin = await createPrincipal(ctx().db, { username: "data-admin", roleId: "administrator", admin: true });
    contributor = await createPrincipal(ctx().db, { username: "data-contributor", roleId: "contributor" });
    const ids = Array.from({ length: 5 }, () => randomUUID());
    await ctx()
      .db.kysely.insertInto("stories")
      .values([
        storyRow({
          id: ids[0]!,
          type: "photo",
          status: "committed",
          authors: JSON.stringify(["王小明", "Ann"]),
          source: "新华社",
          created_at: "2026-11-20T10:00:00.000Z",
        }),
        storyRow({
          id: ids[1]!,
          type: "photo",
          status: "published",
          authors: JSON.stringify(["王小明"]),
          source: "新华社",
          created_at: "2026-11-21T23:59:59.000Z",
        }),
        storyRow({
          id: ids[2]!,
          type: "video",
          status: "draft",
          library_id: "material",
          authors: JSON.stringify(["Ann"]),
          source: "Reuters",
          created_at: "2026-11-22T00:00:00.000Z",
        }),
        storyRow({
          id: ids[3]!,
          type: "audio",
          status: "committed",
          authors: JSON.stringify(["Bob"]),
          source: "Reuters",
          created_at: "2026-11-22T08:00:00.000Z",
        }),
        // Made before the period: counted in the totals, not in the period's authors and sources.
        storyRow({ id: ids[4]!, type: "photo", authors: JSON.stringify(["Old"]), source: "Old wire" }),
      ])
      .execute();
    const action = (index: number, kind: string, at: string) =>
      storyActionRow({ id: ids[index]!, libraryId: index === 2 ? "material" : "product" }, admin, kind, at);
    await ctx()
      .db.kysely.insertInto("story_actions")
      .values([
        action(0, "create", "2026-11-20T10:00:00.000Z"),
        action(0, "commit", "2026-11-21T09:00:00.000Z"),
        action(1, "create", "2026-11-21T23:59:59.000Z"),
        action(1, "commit", "2026-11-22T00:00:01.000Z"),
        action(2, "create", "2026-11-22T00:00:00.000Z"),
        action(3, "create", "2026-11-22T08:00:00.000Z"),
        action(3, "commit", "2026-11-22T08:01:00.000Z"),
        action(3, "edit", "2026-11-22T08:02:00.000Z"),
      ])
      .execute();
  });

  const monitor = () =>
    new DataMonitor({
      statistics: new StoryStatistics(ctx().db),
      libraries: { find: async (id: string) => ({ name: `library ${id}` }) as never },
      clock: () => Date.parse("2026-11-22T15:00:00.000Z"),
    });

  it("counts the stories by type, status and library, and each day's stories, uploads and commits", async () => {
    const data = await monitor().data(3);
    expect(data.stories).toBe(5);
    expect(data.byType).toEqual([
      { type: "photo", stories: 3 },
      { type: "audio", stories: 1 },
      { type: "video", stories: 1 },
    ]);
    expect(data.byStatus).toEqual([
      { status: "committed", stories: 3 },
      { status: "draft", stories: 1 },
      { status: "published", stories: 1 },
    ]);
    expect(data.byLibrary).toEqual([
      { libraryId: "product", libraryName: "library product", stories: 4 },
      { libraryId: "material", libraryName: "library material", stories: 1 },
    ]);
    expect(data.perDay).toEqual([
      { day: "2026-11-20", stories: 1, uploads: 1, commits: 0 },
      { day: "2026-11-21", stories: 1, uploads: 1, commits: 1 },
      { day: "2026-11-22", stories: 2, uploads: 2, commits: 2 },
    ]);
  });

  it("names the period's top authors and sources, each story counted once per author", async () => {
    const data = await monitor().data(3);
    expect(data.topAuthors).toEqual([
      { name: "Ann", stories: 2 },
      { name: "王小明", stories: 2 },
      { name: "Bob", stories: 1 },
    ]);
    expect(data.topSources).toEqual([
      { name: "Reuters", stories: 2 },
      { name: "新华社", stories: 2 },
    ]);
    // One day back: only the 22nd's stories; every day of the period is listed, empty ones with zeros.
    const oneDay = await monitor().data(1);
    expect(oneDay.topSources).toEqual([{ name: "Reuters", stories: 2 }]);
    expect(oneDay.perDay).toEqual([{ day: "2026-11-22", stories: 2, uploads: 2, commits: 2 }]);
  });

  it("answers over HTTP to manage.monitor.data, every day of the period listed", async () => {
    const response = await ctx().app.inject({ method: "GET", url: `${DATA}?days=7`, headers: admin.headers });
    expect(response.statusCode).toBe(200);
    const data = response.json().data;
    expect(data.stories).toBe(5);
    expect(data.perDay).toHaveLength(7);
    expect((await ctx().app.inject({ method: "GET", url: DATA, headers: contributor.headers })).statusCode).toBe(403);
    expect((await ctx().app.inject({ method: "GET", url: DATA })).statusCode).toBe(401);
    const tooMany = await ctx().app.inject({ method: "GET", url: `${DATA}?days=367`, headers: admin.headers });
    expect(tooMany.statusCode).toBe(400);
  });
});
