import { beforeAll, expect, it } from "vitest";
import { describeEachDialect } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { api, useStoriesApp } from "../../test/stories-app.js";
import { AuditRepository, type NewAuditRow } from "./audit.repository.js";
import { AuditService } from "./audit.service.js";
import { AuditLog } from "./audit-log.js";

const DAY = 86_400_000;
const NOW = Date.parse("2026-11-20T12:00:00.000Z");

function row(index: number, overrides: Partial<NewAuditRow> = {}): NewAuditRow {
  return {
    at: new Date(NOW - index * 60_000).toISOString(),
    actorId: null,
    actorName: index % 3 === 0 ? "王编辑" : "li.photo",
    ip: "10.0.0.1",
    userAgent: null,
    action: index % 5 === 0 ? "story.delete" : "story.edit",
    targetType: "story",
    targetId: `story-${index % 7}`,
    targetLabel: `台风 ${index % 7}`,
    result: index % 11 === 0 ? "denied" : "ok",
    before: null,
    after: null,
    details: null,
    ...overrides,
  };
}

describeEachDialect("operation log page", (dialect) => {
  const ctx = useStoriesApp(dialect);
  const call = api(ctx);
  let admin: TestPrincipal;
  let administrator: TestPrincipal;
  // Two rows at one instant (the first and the last): the id orders them.
  const rows = [...Array.from({ length: 300 }, (_, index) => row(index)), row(0, { actorName: "same-instant" })];

  beforeAll(async () => {
    admin = await createPrincipal(ctx().db, { username: "log-admin", roleId: "administrator", admin: true });
    administrator = await createPrincipal(ctx().db, { username: "log-role-admin", roleId: "administrator" });
    const repository = new AuditRepository(ctx().db.kysely, ctx().db.adapter);
    await repository.insert(rows);
  });

  const range = { from: new Date(NOW - 400 * 60_000).toISOString(), to: new Date(NOW + 1).toISOString() };

  async function walk(query: Record<string, string>, size: number) {
    const seen: { id: number; at: string; actorName: string | null; action: string; result: string }[] = [];
    let cursor: string | null | undefined;
    let pages = 0;
    do {
      const params = new URLSearchParams({ ...query, ...range, size: String(size), ...(cursor ? { cursor } : {}) });
      const response = await call(admin, "GET", `/log/logDisplay?${params}`);
      expect(response.statusCode).toBe(200);
      const page = response.json().data;
      expect(page.content.length).toBeLessThanOrEqual(size);
      seen.push(...page.content);
      cursor = page.next;
      pages++;
    } while (cursor && pages < 100);
    return seen;
  }

  it("pages by cursor through every row, newest first, without a gap or a repeat", async () => {
    const seen = await walk({}, 7);
    expect(seen).toHaveLength(301);
    expect(new Set(seen.map((item) => item.id)).size).toBe(301);
    const keys = seen.map((item) => `${item.at}|${String(item.id).padStart(12, "0")}`);
    expect(keys).toEqual([...keys].sort().reverse());
  });

  it("filters by user, action, target, result and dates, each alone and together", async () => {
    const expected = (test: (item: NewAuditRow) => boolean) => rows.filter(test).length;
    expect(await walk({ actor: "王编辑" }, 50)).toHaveLength(expected((item) => item.actorName === "王编辑"));
    expect(await walk({ action: "story.delete" }, 50)).toHaveLength(expected((item) => item.action === "story.delete"));
    expect(await walk({ target: "台风 3" }, 50)).toHaveLength(expected((item) => item.targetLabel === "台风 3"));
    expect(await walk({ target: "story-3" }, 50)).toHaveLength(expected((item) => item.targetId === "story-3"));
    expect(await walk({ result: "denied" }, 50)).toHaveLength(expected((item) => item.result === "denied"));
    const both = await walk({ actor: "王编辑", action: "story.delete", result: "ok" }, 5);
    expect(both).toHaveLength(
      expected((item) => item.actorName === "王编辑" && item.action === "story.delete" && item.result === "ok"),
    );
    const hour = await call(
      admin,
      "GET",
      `/log/logDisplay?${new URLSearchParams({ from: new Date(NOW - 59 * 60_000).toISOString(), to: new Date(NOW + 1).toISOString(), size: "200" })}`,
    );
    expect(hour.json().data.content.map((item: { id: number }) => item.id)).toHaveLength(61);
  });

  it("bounds the page size and the date range, and refuses a cursor it did not give", async () => {
    expect((await call(admin, "GET", "/log/logDisplay?size=201")).statusCode).toBe(400);
    const long = new URLSearchParams({ from: "2024-01-01T00:00:00Z", to: "2026-01-01T00:00:00Z" });
    const refused = await call(admin, "GET", `/log/logDisplay?${long}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe("range_too_long");
    expect((await call(admin, "GET", "/log/logDisplay?cursor=bm9uc2Vuc2U")).json().error).toBe("invalid_cursor");
  });

  it("is for administrators only", async () => {
    expect((await call(administrator, "GET", "/log/logDisplay")).statusCode).toBe(403);
    expect((await call(administrator, "PUT", "/log/settings", { retentionDays: 30 })).statusCode).toBe(403);
  });

  it("keeps what the retention says: the maintenance prune deletes older rows and records that it did", async () => {
    const repository = new AuditRepository(ctx().db.kysely, ctx().db.adapter);
    const clock = () => new Date(NOW + 30 * DAY);
    const service = new AuditService(repository, new AuditLog(repository, clock), clock);
    // No retention set: nothing goes.
    expect(await service.prune()).toBe(0);
    const saved = await call(admin, "PUT", "/log/settings", { retentionDays: 30 });
    expect(saved.json().data).toMatchObject({ retentionDays: 30, updatedBy: "log-admin" });
    expect((await call(admin, "PUT", "/log/settings", { retentionDays: 3 })).statusCode).toBe(400);
    // 30 days after NOW, the rows older than NOW (all but the two at NOW) are past it.
    expect(await service.prune()).toBe(299);
    const left = (await call(admin, "GET", "/log/logDisplay?size=200")).json().data.content;
    expect(left.map((item: { action: string }) => item.action)).toContain("audit.prune");
    expect(left.filter((item: { at: string }) => Date.parse(item.at) < NOW)).toEqual([]);
  });
});
