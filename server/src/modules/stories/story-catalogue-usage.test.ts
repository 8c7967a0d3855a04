import { beforeAll, expect, it } from "vitest";
import { callApi } from "../../test/api-call.js";
import { describeEachDialect, useTestApp } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";

interface Entry {
  id: string;
  name: string;
}

describeEachDialect("catalogue entries used by stories", (dialect) => {
  const ctx = useTestApp(dialect);
  let admin: TestPrincipal;

  beforeAll(async () => {
    admin = await createPrincipal(ctx().db, { username: "usage-admin", admin: true });
  });

  it("refuses to delete a tag, author, theme or source stories use, counting them; unused entries go", async () => {
    const { app } = ctx();
    const tag = await callApi<Entry>(app, admin, "POST", "/tag", { name: "航天" });
    const unusedTag = await callApi<Entry>(app, admin, "POST", "/tag", { name: "Budget" });
    const author = await callApi<Entry>(app, admin, "POST", "/nrauthor/create", { name: "张三" });
    const theme = await callApi<Entry>(app, admin, "POST", "/theme", { name: "两会" });
    const story = { libraryId: "product", authors: ["张三"], theme: "两会" };
    await callApi(app, admin, "POST", "/workflow-story-create/photo", { ...story, title: "a", tags: ["航天", "台风"] });
    await callApi(app, admin, "POST", "/workflow-story-create/photo", { ...story, title: "b", tags: ["航天"] });
    await callApi(app, admin, "POST", "/workflow-story-create/photo", {
      libraryId: "product",
      title: "c",
      tags: ["航天x"],
    });

    const refusedTag = await callApi<{ msg: string }>(app, admin, "DELETE", `/tag/${tag.id}`, undefined, 409);
    expect(refusedTag.msg).toBe('the tag "航天" is used by 2 stories and cannot be deleted');
    const refusedAuthor = await callApi<{ msg: string }>(
      app,
      admin,
      "DELETE",
      `/nrauthor/delete/${author.id}`,
      undefined,
      409,
    );
    expect(refusedAuthor.msg).toBe('the author "张三" is used by 2 stories and cannot be deleted');
    await callApi(app, admin, "DELETE", `/theme/${theme.id}`, undefined, 409);
    await callApi(app, admin, "DELETE", `/tag/${unusedTag.id}`);
  });
});
