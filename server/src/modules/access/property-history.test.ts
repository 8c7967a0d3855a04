import { beforeAll, expect, it } from "vitest";
import { describeEachDialect, useTestApp } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { api, committedPhoto } from "../../test/stories-app.js";

/**
 * Field-level access and the records of an edit (issue 18): the operation log keeps a property's values
 * before and after, and only administrators read it; the story's history (the viewer's tab) shows each
 * changed field from what to what, and loses the properties hidden from the reader's role.
 */
describeEachDialect("field-level access in the log and the story history", (dialect) => {
  const ctx = useTestApp(dialect);
  let admin: TestPrincipal;
  let logReader: TestPrincipal;
  let viewer: TestPrincipal;
  let editor: TestPrincipal;
  let storyId: string;

  const call = api(ctx);
  const range = () => ({
    from: new Date(Date.now() - 3_600_000).toISOString(),
    to: new Date(Date.now() + 60_000).toISOString(),
  });

  beforeAll(async () => {
    admin = await createPrincipal(ctx().db, { username: "flh-admin", roleId: "administrator", admin: true });
    viewer = await createPrincipal(ctx().db, { username: "flh-viewer", roleId: "viewer" });
    editor = await createPrincipal(ctx().db, { username: "flh-editor", roleId: "editor" });
    // A role granted the log page's permission (and search, to read the story), hiding "sourceFee".
    const role = await call(admin, "POST", "/roles", {
      name: "log readers",
      permissions: [
        { permissionId: "manage.setting.log", actions: ["query", "export"] },
        { permissionId: "search", actions: ["query", "get"] },
      ],
    });
    expect(role.statusCode, role.body).toBe(200);
    const roleId: string = role.json().data.id;
    logReader = await createPrincipal(ctx().db, { username: "flh-log-reader", roleId });
    for (const hiding of [roleId, "viewer"]) {
      const rules = await call(admin, "PUT", `/property-access/${hiding}`, {
        rules: [{ property: "sourceFee", visible: false, editable: false }],
      });
      expect(rules.statusCode, rules.body).toBe(200);
    }
    storyId = await committedPhoto(ctx, admin, { title: "稿费 history", properties: { sourceFee: 800, city: "北京" } });
    // The administrator changes the hidden property and a visible one in one edit.
    const edited = await call(admin, "PUT", `/workflow-story-edit/photo/${storyId}?libraryId=product`, {
      properties: { sourceFee: 4321, city: "上海" },
    });
    expect(edited.statusCode, edited.body).toBe(200);
  });

  it("keeps the edit's values in the operation log, which only administrators read (page and export)", async () => {
    const query = new URLSearchParams({ ...range(), target: storyId, action: "story.edit" });
    const page = await call(admin, "GET", `/log/logDisplay?${query}`);
    expect(page.statusCode, page.body).toBe(200);
    const [entry] = page.json().data.content;
    expect(entry.before.properties).toMatchObject({ sourceFee: 800, city: "北京" });
    expect(entry.after.properties).toMatchObject({ sourceFee: 4321, city: "上海" });
    const body = {
      table: "log",
      format: "csv",
      filter: { ...range(), target: storyId, action: "story.edit" },
      columns: [
        { key: "before", title: "before" },
        { key: "after", title: "after" },
      ],
    };
    const exported = await call(admin, "POST", "/export/table_0", body);
    expect(exported.statusCode).toBe(200);
    expect(exported.body).toContain("4321");
    // A role holding the log's permission is still refused: manage.setting.* is for administrators alone,
    // and an administrator's hidden set is empty. So the log never reaches a reader with a hidden property.
    for (const who of [logReader, viewer, editor]) {
      expect((await call(who, "GET", `/log/logDisplay?${query}`)).statusCode).toBe(403);
      expect((await call(who, "POST", "/export/table_0", body)).statusCode).toBe(403);
    }
  });

  it("leaves a hidden property out of the story's history for the roles it is hidden from", async () => {
    const url = `/story-actions?libraryId=product&storyId=${storyId}&page=0&size=50`;
    const changesSeenBy = async (who: TestPrincipal) => {
      const response = await call(who, "GET", url);
      expect(response.statusCode, response.body).toBe(200);
      const edit = response.json().data.content.find((action: { action: string }) => action.action === "edit");
      expect(edit, response.body).toBeDefined();
      return { body: response.body, changes: edit.details.changes as { field: string; from: unknown; to: unknown }[] };
    };
    // The viewer's role hides "sourceFee": its change is gone, the visible one stays.
    const seen = await changesSeenBy(viewer);
    expect(seen.changes).toEqual([{ field: "properties.city", from: "北京", to: "上海" }]);
    expect(seen.body).not.toContain("sourceFee");
    expect(seen.body).not.toContain("4321");
    for (const who of [admin, editor]) {
      expect((await changesSeenBy(who)).changes).toEqual(
        expect.arrayContaining([
          { field: "properties.sourceFee", from: 800, to: 4321 },
          { field: "properties.city", from: "北京", to: "上海" },
        ]),
      );
    }
  });
});
