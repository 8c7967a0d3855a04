import { beforeAll, describe, expect, it } from "vitest";
import { auditSince, failInsertsInto, lastAuditId } from "../../test/audit.js";
import { describeEachDialect } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { api, uploadStory, useStoriesApp } from "../../test/stories-app.js";
import { AuditRepository } from "./audit.repository.js";
import { AuditLog, AuditMisuse, auditChanges } from "./audit-log.js";

describe("auditChanges", () => {
  it("keeps only the fields of the patch whose values changed, both sides", () => {
    expect(
      auditChanges(
        { title: "旧", caption: "same", keywords: ["a"], folderId: null },
        { title: "新", caption: "same", keywords: ["a", "b"], folderId: undefined },
      ),
    ).toEqual({ before: { title: "旧", keywords: ["a"] }, after: { title: "新", keywords: ["a", "b"] } });
  });
});

describeEachDialect("operation log", (dialect) => {
  const ctx = useStoriesApp(dialect);
  const call = api(ctx);
  let editor: TestPrincipal;
  let viewer: TestPrincipal;
  const browser = { "user-agent": "Mozilla/5.0 (audit test) 台风浏览器" };

  beforeAll(async () => {
    editor = await createPrincipal(ctx().db, { username: "audit-editor", roleId: "editor" });
    viewer = await createPrincipal(ctx().db, { username: "audit-viewer", roleId: "viewer" });
  });

  it("refuses to record outside a transaction: a record beside the change could outlive its rollback", async () => {
    const log = new AuditLog(new AuditRepository(ctx().db.kysely, ctx().db.adapter));
    await expect(
      log.record(ctx().db.kysely, null, { action: "story.edit", target: { type: "story" } }),
    ).rejects.toBeInstanceOf(AuditMisuse);
    await expect(
      ctx()
        .db.kysely.transaction()
        .execute((trx) => log.record(trx, null, { action: "Edit", target: { type: "x" } })),
    ).rejects.toBeInstanceOf(AuditMisuse);
  });

  it("records an edit with who, from where, the target and the fields before and after", async () => {
    const { story } = await uploadStory(ctx(), editor, { name: "台风.jpg" });
    const since = await lastAuditId(ctx().db);
    const edited = await call(
      editor,
      "PUT",
      `/workflow-story-edit/photo/${story.id}?libraryId=product`,
      { title: "台风“山竹”", caption: story.caption },
      browser,
    );
    expect(edited.statusCode).toBe(200);
    const records = await auditSince(ctx().db, since);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      actorId: editor.id,
      actorName: "audit-editor",
      ip: "127.0.0.1",
      userAgent: browser["user-agent"],
      action: "story.edit",
      targetType: "story",
      targetId: story.id,
      targetLabel: "台风",
      result: "ok",
      before: { title: "台风" },
      after: { title: "台风“山竹”" },
      details: { libraryId: "product" },
    });
  });

  it("leaves no record of a change that fails in its transaction, and no change without its record", async () => {
    const { story } = await uploadStory(ctx(), editor, {});
    const since = await lastAuditId(ctx().db);
    // The commit writes its record, then enqueues the media job: failing the job's insert fails the commit.
    const restoreJobs = await failInsertsInto(ctx().db, "jobs");
    try {
      const failed = await call(editor, "POST", "/workflow-story-create/photo/commit", {
        libraryId: "product",
        storyIds: [story.id],
      });
      expect(failed.statusCode).toBe(500);
    } finally {
      await restoreJobs();
    }
    expect(await auditSince(ctx().db, since)).toEqual([]);
    expect((await call(editor, "GET", `/stories/product/${story.id}`)).json().data.status).toBe("draft");

    // The other way round: when the record cannot be written, the change does not happen.
    const restoreLog = await failInsertsInto(ctx().db, "audit_log");
    try {
      const refused = await call(editor, "DELETE", `/workflow-story-delete/product/${story.id}`);
      expect(refused.statusCode).toBe(500);
    } finally {
      await restoreLog();
    }
    expect((await call(editor, "GET", `/stories/product/${story.id}`)).statusCode).toBe(200);

    const committed = await call(editor, "POST", "/workflow-story-create/photo/commit", {
      libraryId: "product",
      storyIds: [story.id],
    });
    expect(committed.statusCode).toBe(200);
    const records = await auditSince(ctx().db, since);
    expect(records.map((record) => [record.action, record.targetId, record.after])).toEqual([
      ["story.commit", story.id, { status: "committed" }],
    ]);
  });

  it("records a refused change as denied, with the route as target", async () => {
    const { story } = await uploadStory(ctx(), editor, {});
    const since = await lastAuditId(ctx().db);
    const refused = await call(viewer, "DELETE", `/workflow-story-delete/product/${story.id}`, undefined, browser);
    expect(refused.statusCode).toBe(403);
    // The refusal is recorded once the answer has gone (an onResponse hook): wait for it.
    await expect
      .poll(() => auditSince(ctx().db, since), { timeout: 30_000 })
      .toEqual([
        expect.objectContaining({
          actorName: "audit-viewer",
          action: "http.delete",
          targetType: "route",
          targetId: "DELETE /workflow-story-delete/:libraryId/:storyId",
          targetLabel: `/dams/api/v1/workflow-story-delete/product/${story.id}`,
          result: "denied",
          userAgent: browser["user-agent"],
        }),
      ]);
  });
});
