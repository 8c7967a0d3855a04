import { beforeAll, expect, it } from "vitest";
import { auditSince, lastAuditId } from "../../test/audit.js";
import { describeEachDialect } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { api, uploadStory, useStoriesApp } from "../../test/stories-app.js";
import { changingRoutes } from "./audit-coverage.js";

/**
 * The routes that change nothing worth a record, written out here (not read
 * from the code under test): a route added with `notAudited` fails this test
 * until it is listed with its reason.
 */
const NOT_AUDITED = [
  "PATCH /uploads/:id",
  "DELETE /uploads/:id",
  // A share visitor's tus chunks, like the users' own: the finished file's draft is audited in its transaction.
  "PATCH /shared/uploads/:id",
  "DELETE /shared/uploads/:id",
  "POST /watermark-presets/preview",
  "POST /shared/unlock",
];

describeEachDialect("operation log coverage", (dialect) => {
  const ctx = useStoriesApp(dialect);
  const call = api(ctx);
  let editor: TestPrincipal;
  let admin: TestPrincipal;

  beforeAll(async () => {
    editor = await createPrincipal(ctx().db, { username: "coverage-editor", roleId: "editor" });
    admin = await createPrincipal(ctx().db, { username: "coverage-admin", roleId: "administrator", admin: true });
  });

  it("walks the route table: every POST, PUT, PATCH and DELETE records, but the listed exceptions", () => {
    const routes = changingRoutes(ctx().app);
    expect(routes.length).toBeGreaterThan(40);
    const exempt = routes.filter((route) => route.notAudited !== undefined);
    expect(exempt.map((route) => `${route.method} ${route.url}`).sort()).toEqual([...NOT_AUDITED].sort());
    for (const route of exempt) expect(route.notAudited!.length).toBeGreaterThan(20);
  });

  it("records a change whose service records nothing, once, with the route and its parameters", async () => {
    const { story } = await uploadStory(ctx(), editor, {});
    const since = await lastAuditId(ctx().db);
    const added = await call(editor, "POST", "/workflow-story-favorite", { libraryId: "product", storyId: story.id });
    expect(added.statusCode).toBe(200);
    const records = await waitForRecords(since, 1);
    expect(records).toEqual([
      expect.objectContaining({
        actorName: "coverage-editor",
        action: "http.post",
        targetType: "route",
        targetId: "POST /workflow-story-favorite",
        result: "ok",
      }),
    ]);
  });

  it("adds nothing to a change that recorded itself, and nothing for a refused or invalid one", async () => {
    const { story } = await uploadStory(ctx(), editor, {});
    const since = await lastAuditId(ctx().db);
    const deleted = await call(editor, "DELETE", `/workflow-story-delete/product/${story.id}`);
    expect(deleted.statusCode).toBe(200);
    const invalid = await call(editor, "POST", "/workflow-story-favorite", { libraryId: "product" });
    expect(invalid.statusCode).toBe(400);
    // A change the hook records, after both: once it is there, nothing else can still come.
    const settings = await call(admin, "PUT", "/log/settings", { retentionDays: 30 });
    expect(settings.statusCode).toBe(200);
    const records = await waitForRecords(since, 2);
    expect(records.map((record) => [record.action, record.targetId])).toEqual([
      ["story.delete", story.id],
      ["audit.settings", "audit.retention"],
    ]);
    expect(records[1]).toMatchObject({ before: { retentionDays: null }, after: { retentionDays: 30 } });
  });

  /** The hook writes after the answer: wait (bounded) until `count` records are there. */
  async function waitForRecords(since: number, count: number) {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const records = await auditSince(ctx().db, since);
      if (records.length >= count || Date.now() > deadline) return records;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
});
