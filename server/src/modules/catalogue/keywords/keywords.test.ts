import { beforeAll, expect, it } from "vitest";
import { callApi } from "../../../test/api-call.js";
import { describeEachDialect, useTestApp } from "../../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../../test/principals.js";
import { buildCatalogue } from "../catalogue.compose.js";
import { noCatalogueUsage } from "../shared/catalogue-usage.js";
import { distinctNames, KEYWORD_HISTORY_LIMIT } from "./keyword.service.js";

interface Keyword {
  id: string;
  name: string;
  useCount: number;
}
interface History {
  content: { id: string; keyword: string; usedAt: string }[];
  totalElements: number;
}

it("keeps the first spelling of each keyword, regardless of case and blanks", () => {
  expect(distinctNames([" Flood ", "flood", "", "洪水", "FLOOD", "洪水"])).toEqual(["Flood", "洪水"]);
});

describeEachDialect("keywords and keyword history", (dialect) => {
  const ctx = useTestApp(dialect);
  let admin: TestPrincipal;
  let reporter: TestPrincipal;
  let editor: TestPrincipal;

  beforeAll(async () => {
    admin = await createPrincipal(ctx().db, { username: "keyword-admin", admin: true });
    reporter = await createPrincipal(ctx().db, { username: "keyword-reporter", roleId: "contributor" });
    editor = await createPrincipal(ctx().db, { username: "keyword-editor", roleId: "editor" });
  });

  it("orders listByOrder by use count, then by name; list by name", async () => {
    const { app, db } = ctx();
    for (const name of ["Budget", "Flood", "洪水", "Apple"]) await callApi(app, admin, "POST", "/keyword", { name });
    const keywords = buildCatalogue(db, noCatalogueUsage).keywords;
    await keywords.recordUse(["flood", "洪水"]);
    await keywords.recordUse(["FLOOD", "Storm"]);
    await keywords.recordUse(["Flood", "flood"]);

    const byUse = await callApi<Keyword[]>(app, reporter, "GET", "/keyword/listByOrder");
    expect(byUse.map((keyword) => [keyword.name, keyword.useCount])).toEqual([
      ["Flood", 3],
      ["Storm", 1],
      ["洪水", 1],
      ["Apple", 0],
      ["Budget", 0],
    ]);
    const topTwo = await callApi<Keyword[]>(app, reporter, "GET", "/keyword/listByOrder?size=2");
    expect(topTwo.map((keyword) => keyword.name)).toEqual(["Flood", "Storm"]);
    const byName = await callApi<Keyword[]>(app, reporter, "GET", "/keyword/list?keyword=o");
    expect(byName.map((keyword) => keyword.name)).toEqual(["Flood", "Storm"]);
  });

  it("keeps each user's history apart, most recent first, one row per keyword", async () => {
    const { app } = ctx();
    await callApi(app, reporter, "POST", "/keywordhistory", { keywords: ["台风", "Typhoon"] });
    await callApi(app, editor, "POST", "/keywordhistory", { keywords: ["Election"] });
    await callApi(app, reporter, "POST", "/keywordhistory", { keywords: ["Rescue", "typhoon"] });

    const mine = await callApi<History>(app, reporter, "GET", "/keywordhistory");
    expect(mine.content.map((entry) => entry.keyword)).toEqual(["Rescue", "typhoon", "台风"]);
    const theirs = await callApi<History>(app, editor, "GET", "/keywordhistory");
    expect(theirs.content.map((entry) => entry.keyword)).toEqual(["Election"]);

    // Nobody forgets another user's entry, nor learns it exists.
    const rescue = mine.content[0]!;
    await callApi(app, editor, "DELETE", `/keywordhistory/${rescue.id}`, undefined, 404);
    await callApi(app, reporter, "DELETE", `/keywordhistory/${rescue.id}`);
    const after = await callApi<History>(app, reporter, "GET", "/keywordhistory?keyword=TY");
    expect(after.content.map((entry) => entry.keyword)).toEqual(["typhoon"]);

    await callApi(app, reporter, "DELETE", "/keywordhistory");
    expect((await callApi<History>(app, reporter, "GET", "/keywordhistory")).totalElements).toBe(0);
    expect((await callApi<History>(app, editor, "GET", "/keywordhistory")).totalElements).toBe(1);
  });

  it(`keeps only the latest ${KEYWORD_HISTORY_LIMIT} keywords of a user`, async () => {
    const { app } = ctx();
    const first = Array.from({ length: 40 }, (_, index) => `first-${index}`);
    const second = Array.from({ length: 20 }, (_, index) => `second-${index}`);
    await callApi(app, editor, "POST", "/keywordhistory", { keywords: first });
    await callApi(app, editor, "POST", "/keywordhistory", { keywords: second });
    const history = await callApi<History>(app, editor, "GET", "/keywordhistory?size=100");
    expect(history.totalElements).toBe(KEYWORD_HISTORY_LIMIT);
    expect(history.content.slice(0, 3).map((entry) => entry.keyword)).toEqual(["second-0", "second-1", "second-2"]);
    // The oldest went first: "Election" and the last of the first batch are gone.
    const kept = history.content.map((entry) => entry.keyword);
    expect(kept).not.toContain("Election");
    expect(kept).toContain("first-29");
    expect(kept).not.toContain("first-30");
  });

  it("names the field of a bad history body", async () => {
    const empty = await callApi<{ msg: string }>(ctx().app, reporter, "POST", "/keywordhistory", { keywords: [] }, 400);
    expect(empty.msg).toContain("body.keywords");
  });
});
