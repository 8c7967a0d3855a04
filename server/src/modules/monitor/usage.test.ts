import { randomUUID } from "node:crypto";
import { beforeAll, expect, it } from "vitest";
import { API_PREFIX } from "../../http/error-handler.js";
import { describeEachDialect, useTestApp } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { storyRow } from "../../test/stories-app.js";
import { readXlsxRows } from "../../test/xlsx-reader.js";

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
    const action = (index: number, kind: string, at: string, who: TestPrincipal) => ({
      id: randomUUID(),
      library_id: index === 2 ? "material" : "product",
      story_id: ids[index]!,
      user_id: who.id,
      username: who.username,
      action: kind,
      at,
      ip: null,
      details: "{}",
    });
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
      { key: ids[0], label: "港口", downloads: 2, publishes: 1, shares: 0 },
      { key: ids[1], label: "Harbour", downloads: 1, publishes: 0, shares: 0 },
    ]);
    expect(await rows("user")).toEqual(
      expect.arrayContaining([
        { key: admin.id, label: expect.any(String), downloads: 1, publishes: 1, shares: 0 },
        { key: editor.id, label: expect.any(String), downloads: 2, publishes: 0, shares: 0 },
      ]),
    );
    expect(await rows("library")).toEqual([
      { key: "product", label: expect.any(String), downloads: 3, publishes: 1, shares: 0 },
    ]);
    expect(await rows("author")).toEqual([
      { key: "Ann", label: null, downloads: 3, publishes: 1, shares: 0 },
      { key: "王小明", label: null, downloads: 2, publishes: 1, shares: 0 },
    ]);
    expect(await rows("source")).toEqual([
      { key: "新华社", label: null, downloads: 2, publishes: 1, shares: 0 },
      { key: "Reuters", label: null, downloads: 1, publishes: 0, shares: 0 },
    ]);
  });

  it("counts the share links made in the period with each story", async () => {
    const now = Date.now();
    const period = `from=${new Date(now - 86_400_000).toISOString()}&to=${new Date(now + 86_400_000).toISOString()}`;
    const byStory = (await get(`/usage?${period}&by=story`)).json().data;
    expect(byStory).toEqual(
      expect.arrayContaining([
        { key: ids[0], label: "港口", downloads: 0, publishes: 0, shares: 1 },
        { key: ids[1], label: "Harbour", downloads: 0, publishes: 0, shares: 1 },
      ]),
    );
    expect((await get(`/usage?${period}&by=user`)).json().data).toEqual([
      { key: editor.id, label: expect.any(String), downloads: 0, publishes: 0, shares: 2 },
    ]);
    expect((await get(`/usage?${period}&by=author`)).json().data).toEqual([
      { key: "Ann", label: null, downloads: 0, publishes: 0, shares: 2 },
      { key: "王小明", label: null, downloads: 0, publishes: 0, shares: 1 },
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
});
