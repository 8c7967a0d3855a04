import { randomUUID } from "node:crypto";
import { beforeAll, expect, it } from "vitest";
import { API_PREFIX } from "../../http/error-handler.js";
import { describeEachDialect, useTestApp } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { storyActionRow, storyRow } from "../../test/stories-app.js";
import { readXlsxRows } from "../../test/xlsx-reader.js";
import { UsageCountersRepository, usageRetentionStart } from "./usage-counter.js";

const STATISTICS = `${API_PREFIX}/statistics`;
const PERIOD = "from=2024-11-01T00:00:00Z&to=2024-12-01T00:00:00Z";

describeEachDialect("usage statistics", (dialect) => {
  const ctx = useTestApp(dialect);
  let admin: TestPrincipal;
  let editor: TestPrincipal;
  const ids = Array.from({ length: 4 }, () => randomUUID());

  const get = (url: string, who: TestPrincipal = admin) =>
    ctx().app.inject({ method: "GET", url: `${STATISTICS}${url}`, headers: who.headers });

  beforeAll(async () => {
    admin = await createPrincipal(ctx().db, { username: "usage-admin", roleId: "administrator", admin: true });
    editor = await createPrincipal(ctx().db, { username: "usage-editor", roleId: "editor" });
    await ctx()
      .db.kysely.insertInto("stories")
      .values([
        storyRow({
          id: ids[0]!,
          title: "港口",
          type: "photo",
          authors: JSON.stringify(["王小明", "Ann"]),
          source: "新华社",
        }),
        storyRow({ id: ids[1]!, title: "Harbour", type: "video", authors: JSON.stringify(["Ann"]), source: "Reuters" }),
        storyRow({ id: ids[2]!, title: "Unused", type: "audio", library_id: "material" }),
        storyRow({ id: ids[3]!, title: "Composite", type: "composite", created_at: "2024-12-05T00:00:00.000Z" }),
      ])
      .execute();
    const action = (index: number, kind: string, at: string, who: TestPrincipal) =>
      storyActionRow({ id: ids[index]!, libraryId: index === 2 ? "material" : "product" }, who, kind, at);
    await ctx()
      .db.kysely.insertInto("story_actions")
      .values([
        action(0, "download", "2024-11-02T10:00:00.000Z", admin),
        action(0, "download", "2024-11-03T10:00:00.000Z", editor),
        action(0, "publish", "2024-11-04T10:00:00.000Z", admin),
        action(1, "download", "2024-11-05T10:00:00.000Z", editor),
        // Outside the period, and an action that is not usage.
        action(2, "download", "2024-10-31T23:59:59.000Z", admin),
        action(2, "edit", "2024-11-05T10:00:00.000Z", admin),
      ])
      .execute();
    // A share link with both photo and video, made now: long after the period of the actions above.
    const shared = await ctx().app.inject({
      method: "POST",
      url: `${API_PREFIX}/shares`,
      headers: editor.headers,
      payload: {
        target: {
          kind: "stories",
          stories: [
            { libraryId: "product", storyId: ids[0] },
            { libraryId: "product", storyId: ids[1] },
          ],
        },
      },
    });
    expect(shared.statusCode).toBe(200);
  });

  it("counts downloads and publishes in the period per story, user, library, author and source", async () => {
    const rows = async (by: string) => (await get(`/usage?${PERIOD}&by=${by}`)).json().data;
    expect(await rows("story")).toEqual([
      { key: ids[0], label: "港口", views: 0, downloads: 2, publishes: 1, shares: 0 },
      { key: ids[1], label: "Harbour", views: 0, downloads: 1, publishes: 0, shares: 0 },
    ]);
    expect(await rows("user")).toEqual(
      expect.arrayContaining([
        { key: admin.id, label: expect.any(String), views: 0, downloads: 1, publishes: 1, shares: 0 },
        { key: editor.id, label: expect.any(String), views: 0, downloads: 2, publishes: 0, shares: 0 },
      ]),
    );
    expect(await rows("library")).toEqual([
      { key: "product", label: expect.any(String), views: 0, downloads: 3, publishes: 1, shares: 0 },
    ]);
    expect(await rows("author")).toEqual([
      { key: "Ann", label: null, views: 0, downloads: 3, publishes: 1, shares: 0 },
      { key: "王小明", label: null, views: 0, downloads: 2, publishes: 1, shares: 0 },
    ]);
    expect(await rows("source")).toEqual([
      { key: "新华社", label: null, views: 0, downloads: 2, publishes: 1, shares: 0 },
      { key: "Reuters", label: null, views: 0, downloads: 1, publishes: 0, shares: 0 },
    ]);
  });

  it("counts the share links made in the period with each story", async () => {
    const now = Date.now();
    const period = `from=${new Date(now - 86_400_000).toISOString()}&to=${new Date(now + 86_400_000).toISOString()}`;
    const byStory = (await get(`/usage?${period}&by=story`)).json().data;
    expect(byStory).toEqual(
      expect.arrayContaining([
        { key: ids[0], label: "港口", views: 0, downloads: 0, publishes: 0, shares: 1 },
        { key: ids[1], label: "Harbour", views: 0, downloads: 0, publishes: 0, shares: 1 },
      ]),
    );
    expect((await get(`/usage?${period}&by=user`)).json().data).toEqual([
      { key: editor.id, label: expect.any(String), views: 0, downloads: 0, publishes: 0, shares: 2 },
    ]);
    expect((await get(`/usage?${period}&by=author`)).json().data).toEqual([
      { key: "Ann", label: null, views: 0, downloads: 0, publishes: 0, shares: 2 },
      { key: "王小明", label: null, views: 0, downloads: 0, publishes: 0, shares: 1 },
    ]);
  });

  it("lists the stories made before the period's end and not used in it", async () => {
    const response = await get(`/unused?${PERIOD}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual([
      { id: ids[2], libraryId: "material", title: "Unused", authors: [], source: null },
    ]);
  });

  it("bounds the period and the rows, and needs backend.setting.usedStatistic", async () => {
    expect((await get("/usage?from=2024-01-01T00:00:00Z&to=2026-01-01T00:00:00Z")).statusCode).toBe(400);
    expect((await get("/usage?from=2024-11-02T00:00:00Z&to=2024-11-01T00:00:00Z")).statusCode).toBe(400);
    expect((await get(`/usage?${PERIOD}&limit=501`)).statusCode).toBe(400);
    expect((await get(`/usage?${PERIOD}&by=planet`)).statusCode).toBe(400);
    expect((await get(`/usage?${PERIOD}`, editor)).statusCode).toBe(403);
    expect((await ctx().app.inject({ method: "GET", url: `${STATISTICS}/usage?${PERIOD}` })).statusCode).toBe(401);
  });

  it("exports the usage table as xlsx, read back with another reader (yauzl + saxes)", async () => {
    const response = await ctx().app.inject({
      method: "POST",
      url: `${API_PREFIX}/export/table_0`,
      headers: admin.headers,
      payload: {
        table: "usage",
        format: "xlsx",
        filter: { from: "2024-11-01T00:00:00Z", to: "2024-12-01T00:00:00Z", by: "source" },
        columns: [
          { key: "key", title: "来源" },
          { key: "downloads", title: "下载" },
        ],
      },
    });
    expect(response.statusCode).toBe(200);
    expect(await readXlsxRows(response.rawPayload)).toEqual([
      ["来源", "下载"],
      ["新华社", "2"],
      ["Reuters", "1"],
    ]);
    const refused = await ctx().app.inject({
      method: "POST",
      url: `${API_PREFIX}/export/table_0`,
      headers: editor.headers,
      payload: {
        table: "usage",
        format: "csv",
        filter: { from: "2024-11-01T00:00:00Z", to: "2024-12-01T00:00:00Z" },
        columns: [{ key: "key", title: "key" }],
      },
    });
    expect(refused.statusCode).toBe(403);
  });

  it("counts story views per story, user, library, author and source, written after the answers", async () => {
    const view = (index: number, who: TestPrincipal) =>
      ctx().app.inject({ method: "GET", url: `${API_PREFIX}/stories/product/${ids[index]}`, headers: who.headers });
    for (const [index, who] of [
      [0, admin],
      [0, admin],
      [0, editor],
      [1, editor],
    ] as const) {
      expect((await view(index, who)).statusCode).toBe(200);
    }
    // Counted in memory, not yet stored: the answers did not wait for a write.
    const stored = () => ctx().db.kysely.selectFrom("story_views").select("views").execute();
    expect(await stored()).toEqual([]);
    await ctx().app.usageCounter.flush();
    const now = Date.now();
    const period = `from=${new Date(now - 86_400_000).toISOString()}&to=${new Date(now + 86_400_000).toISOString()}`;
    const rows = async (by: string) =>
      ((await get(`/usage?${period}&by=${by}`)).json().data as { key: string; views: number }[]).map(
        ({ key, views }) => ({ key, views }),
      );
    expect(await rows("story")).toEqual([
      { key: ids[0], views: 3 },
      { key: ids[1], views: 1 },
    ]);
    expect((await get(`/usage?${period}&by=story`)).json().data[0]).toMatchObject({ label: "港口", shares: 1 });
    expect(await rows("user")).toEqual(
      expect.arrayContaining([
        { key: admin.id, views: 2 },
        { key: editor.id, views: 2 },
      ]),
    );
    expect(await rows("library")).toEqual([{ key: "product", views: 4 }]);
    expect(await rows("author")).toEqual([
      { key: "Ann", views: 4 },
      { key: "王小明", views: 3 },
    ]);
    expect(await rows("source")).toEqual([
      { key: "新华社", views: 3 },
      { key: "Reuters", views: 1 },
    ]);
    // A second flush adds to the stored counts (another node's sums do the same).
    expect((await view(1, editor)).statusCode).toBe(200);
    await ctx().app.usageCounter.flush();
    expect((await rows("story")).find((row) => row.key === ids[1])).toEqual({ key: ids[1], views: 2 });
    // The period is in whole UTC days: yesterday's counts are not today's.
    const yesterday = new Date(now - 86_400_000).toISOString().slice(0, 10);
    expect((await get(`/usage?from=${yesterday}T00:00:00Z&to=${yesterday}T23:59:59Z&by=story`)).json().data).toEqual(
      [],
    );
  });

  it("records searches that found nothing, once per text and day, and exports them", async () => {
    const search = (text: string, page = 0) =>
      ctx().app.inject({
        method: "GET",
        url: `${API_PREFIX}/stories?fulltext=${encodeURIComponent(text)}&page=${page}`,
        headers: editor.headers,
      });
    for (const text of ["鲸鱼 照片", "  鲸鱼   照片 ", "Zebra", "zebra"]) {
      expect((await search(text)).statusCode).toBe(200);
    }
    // A search that found something, and a list without text, are not counted.
    ctx().app.usageCounter.searched("港口", 3);
    ctx().app.usageCounter.searched(undefined, 0);
    // A later page of a search is not another search.
    expect((await search("zebra", 1)).statusCode).toBe(200);
    await ctx().app.usageCounter.flush();
    const now = Date.now();
    const from = new Date(now - 86_400_000).toISOString();
    const to = new Date(now + 86_400_000).toISOString();
    const found = await get(`/searches?from=${from}&to=${to}`);
    expect(found.statusCode).toBe(200);
    expect(found.json().data).toEqual([
      { query: "zebra", searches: 2, lastAt: expect.any(String) },
      { query: "鲸鱼 照片", searches: 2, lastAt: expect.any(String) },
    ]);
    expect((await get(`/searches?from=${from}&to=${to}`, editor)).statusCode).toBe(403);
    expect((await get("/searches?from=2024-01-01T00:00:00Z&to=2026-01-01T00:00:00Z")).statusCode).toBe(400);
    const exported = await ctx().app.inject({
      method: "POST",
      url: `${API_PREFIX}/export/table_0`,
      headers: admin.headers,
      payload: {
        table: "searches",
        format: "xlsx",
        filter: { from, to },
        columns: [
          { key: "query", title: "搜索词" },
          { key: "searches", title: "次数" },
        ],
      },
    });
    expect(exported.statusCode).toBe(200);
    expect(await readXlsxRows(exported.rawPayload)).toEqual([
      ["搜索词", "次数"],
      ["zebra", "2"],
      ["鲸鱼 照片", "2"],
    ]);
  });

  it("keeps 400 days of counts: the maintenance's prune deletes older days", async () => {
    await ctx()
      .db.kysely.insertInto("search_misses")
      .values([
        { day: "2020-01-01", query: "old", searches: 1, last_at: "2020-01-01T10:00:00.000Z" },
        { day: usageRetentionStart(new Date()), query: "kept", searches: 1, last_at: new Date().toISOString() },
      ])
      .execute();
    await ctx()
      .db.kysely.insertInto("story_views")
      .values({ day: "2020-01-01", story_id: ids[0]!, user_id: admin.id, library_id: "product", views: 1 })
      .execute();
    const repository = new UsageCountersRepository(ctx().db);
    expect(await repository.prune(usageRetentionStart(new Date()))).toBe(2);
    const left = await ctx()
      .db.kysely.selectFrom("search_misses")
      .select("query")
      .where("query", "in", ["old", "kept"])
      .execute();
    expect(left).toEqual([{ query: "kept" }]);
  });
});
