import { beforeAll, expect, it } from "vitest";
import { API_PREFIX } from "../../http/error-handler.js";
import { describeEachDialect, useTestApp } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";

/**
 * GET one story and a search, the API's hottest signed-in reads (issue 21):
 * once the caller was seen, a repeat reads the stories and nothing else — no
 * identity, permission, library, library-grant or property-rule lookup (kept
 * for DAMS_AUTH_CACHE_SECONDS and dropped when they change).
 */
describeEachDialect("GET one story's and a search's statements", (dialect) => {
  let capturing: string[] | undefined;
  const ctx = useTestApp(dialect, {
    env: { DAMS_WORKERS: "0" },
    log(event) {
      if (event.level === "query") capturing?.push(event.query.sql);
    },
  });
  let admin: TestPrincipal;
  let editor: TestPrincipal;
  let storyId: string;

  beforeAll(async () => {
    admin = await createPrincipal(ctx().db, { username: "grs-admin", roleId: "administrator", admin: true });
    editor = await createPrincipal(ctx().db, { username: "grs-editor", roleId: "editor" });
    const made = await ctx().app.inject({
      method: "POST",
      url: `${API_PREFIX}/workflow-story-create/photo`,
      headers: admin.headers,
      payload: { libraryId: "product", title: "statements", properties: { city: "北京" } },
    });
    expect(made.statusCode, made.body).toBe(200);
    storyId = made.json().data.id;
  });

  /** The editor's GET of `url` a third time (the first two warm the caches) and the statements it ran. */
  async function thirdTime(url: string) {
    const get = () => ctx().app.inject({ method: "GET", url: `${API_PREFIX}${url}`, headers: editor.headers });
    for (let attempt = 0; attempt < 2; attempt++) expect((await get()).statusCode).toBe(200);
    capturing = [];
    const response = await get();
    const statements = capturing;
    capturing = undefined;
    expect(response.statusCode, response.body).toBe(200);
    return { response, statements };
  }

  it("reads only the story and its files once the caller was seen", async () => {
    const { response, statements } = await thirdTime(`/stories/product/${storyId}`);
    expect(response.json().data).toMatchObject({ id: storyId, properties: { city: "北京" } });
    expect(response.headers["content-security-policy"]).toContain("default-src 'self'");
    // Selects only: the usage counter's periodic write may fall in the window.
    const tables = statements
      .filter((sql) => /^\s*select\b/i.test(sql))
      .map((sql) => /\bfrom\s+"?(\w+)"?/i.exec(sql)?.[1]);
    expect(tables).toEqual(["stories", "story_files"]);
  });

  it("looks up no library nor grant in a search once the caller was seen", async () => {
    // The editor's own draft: a search lists it to them.
    const made = await ctx().app.inject({
      method: "POST",
      url: `${API_PREFIX}/workflow-story-create/photo`,
      headers: editor.headers,
      payload: { libraryId: "product", title: "walrus statements" },
    });
    expect(made.statusCode, made.body).toBe(200);
    const { response, statements } = await thirdTime("/stories?fulltext=walrus");
    expect(response.json().data.content.map((story: { id: string }) => story.id)).toEqual([made.json().data.id]);
    const tables = statements
      .filter((sql) => /^\s*select\b/i.test(sql))
      .flatMap((sql) => [...sql.matchAll(/\b(?:from|join)\s+"?(\w+)"?/gi)].map((match) => match[1]));
    expect(tables).toContain("stories");
    for (const table of ["users", "api_tokens", "roles", "role_permissions", "libraries", "library_grants"])
      expect(tables).not.toContain(table);
  });
});
