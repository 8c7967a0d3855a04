import { sql } from "kysely";
import { beforeAll, expect, it } from "vitest";
import { callApi } from "../../test/api-call.js";
import { describeEachDialect } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { useStoriesApp } from "../../test/stories-app.js";
import { WINDOW_COLUMNS } from "./search-index.js";

/**
 * The index holds its own copy of the columns a full-text search filters and
 * orders by (migration 0013): every write of those columns must reach it.
 */
describeEachDialect("search index columns", (dialect) => {
  const ctx = useStoriesApp(dialect);
  let editor: TestPrincipal;
  let other: TestPrincipal;
  let admin: TestPrincipal;

  beforeAll(async () => {
    editor = await createPrincipal(ctx().db, { username: "columns-editor", roleId: "editor" });
    other = await createPrincipal(ctx().db, { username: "columns-other", roleId: "editor" });
    admin = await createPrincipal(ctx().db, { username: "columns-admin", admin: true });
  });

  /** Ids a full-text search with these filters finds, as `who` sees them. */
  async function found(who: TestPrincipal, query: string): Promise<string[]> {
    const page = await callApi<{ content: { id: string }[] }>(
      ctx().app,
      who,
      "GET",
      `/stories?fulltext=zqxcolumns&size=100&facets=false&${query}`,
    );
    return page.content.map((story) => story.id).sort();
  }

  /** Stories whose copy in the index differs from their row (compared as text: dates on PostgreSQL). */
  async function outOfStep(): Promise<string[]> {
    const { db } = ctx();
    const table = sql.table(dialect === "sqlite" ? "story_search_keys" : "story_search");
    const differs = sql.join(
      WINDOW_COLUMNS.map(
        (column) =>
          sql`coalesce(cast(${sql.ref(`i.${column}`)} as text), '') <> coalesce(cast(${sql.ref(`s.${column}`)} as text), '')`,
      ),
      sql` or `,
    );
    const { rows } = await sql<{ id: string }>`select s.id from stories s left join ${table} i on i.story_id = s.id
      where i.story_id is null or ${differs}`.execute(db.kysely);
    return rows.map((row) => String(row.id));
  }

  it("sees a story's status, folder, captured date and terms as the API changes them, and its delete", async () => {
    const { app, module } = ctx();
    const create = (title: string) =>
      callApi<{ id: string }>(app, editor, "POST", "/workflow-story-create/photo", { libraryId: "product", title });
    const story = await create("zqxcolumns one");
    const neighbour = await create("zqxcolumns two");

    // A draft: its creator finds it, nobody else does.
    expect(await found(editor, "status=draft")).toEqual([story.id, neighbour.id].sort());
    expect(await found(other, "")).toEqual([]);

    // Committed (draft → committed is its own update of stories).
    await callApi(app, editor, "POST", "/workflow-story-create/photo/commit", {
      libraryId: "product",
      storyIds: [story.id],
    });
    expect(await found(editor, "status=committed")).toEqual([story.id]);
    expect(await found(editor, "status=draft")).toEqual([neighbour.id]);
    expect(await found(other, "")).toEqual([story.id]);

    // Moved into a folder (made by the library's manager), then out of it.
    const folder = await callApi<{ id: string }>(app, admin, "POST", "/libraries/product/folders", {
      name: "zqx folder",
    });
    await callApi(app, editor, "PUT", `/workflow-story-edit/photo/${story.id}?libraryId=product`, {
      folderId: folder.id,
    });
    expect(await found(editor, `folderId=${folder.id}`)).toEqual([story.id]);
    await callApi(app, editor, "PUT", `/workflow-story-edit/photo/${story.id}?libraryId=product`, { folderId: null });
    expect(await found(editor, `folderId=${folder.id}`)).toEqual([]);

    // The captured date, as the media job fills it.
    expect(await found(editor, "capturedFrom=2021-06-01&capturedTo=2021-06-30")).toEqual([]);
    await module.stories.applyExtractedMetadata(story.id, { capturedAt: "2021-06-15T08:00:00.000Z" });
    expect(await found(editor, "capturedFrom=2021-06-01&capturedTo=2021-06-30")).toEqual([story.id]);

    // A catalogue merge re-points the tag: the filter sees the new name only.
    const from = await callApi<{ id: string }>(app, admin, "POST", "/tag", { name: "Zqxcolumnsold" });
    const into = await callApi<{ id: string }>(app, admin, "POST", "/tag", { name: "Zqxcolumnsnew" });
    await callApi(app, editor, "PUT", `/workflow-story-edit/photo/${story.id}?libraryId=product`, {
      tags: ["Zqxcolumnsold"],
    });
    expect(await found(editor, "tag=Zqxcolumnsold")).toEqual([story.id]);
    await callApi(app, admin, "DELETE", `/tag/${from.id}?mergeInto=${into.id}`);
    expect(await found(editor, "tag=Zqxcolumnsold")).toEqual([]);
    expect(await found(editor, "tag=Zqxcolumnsnew")).toEqual([story.id]);

    expect(await outOfStep()).toEqual([]);

    await callApi(app, editor, "DELETE", `/workflow-story-delete/product/${neighbour.id}`);
    expect(await found(editor, "")).toEqual([story.id]);
    expect(await outOfStep()).toEqual([]);
  });
});
