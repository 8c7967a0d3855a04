import { randomUUID } from "node:crypto";
import { beforeAll, expect, it } from "vitest";
import { describeEachDialect } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { api, storyRow, useStoriesApp } from "../../test/stories-app.js";
import { buildSearch } from "../search/search.compose.js";
import { StoriesRepository } from "../stories/stories.repository.js";

interface Batch {
  id: string;
  state: string;
  total: number;
  done: number;
  changed: number;
  unchanged: number;
  refused: number;
  failed: number;
  progress: number;
  jobId: string | null;
}

interface Item {
  storyId: string;
  outcome: string;
  reason: string | null;
  fields: string[];
}

const BIG = 1000;

describeEachDialect("batch edits of story metadata", (dialect) => {
  const ctx = useStoriesApp(dialect);
  const call = api(ctx);
  let admin: TestPrincipal;
  let contributor: TestPrincipal;
  let other: TestPrincipal;

  beforeAll(async () => {
    admin = await createPrincipal(ctx().db, { username: "batch-admin", roleId: "administrator", admin: true });
    // Writes product and material only, and may not change others' drafts.
    contributor = await createPrincipal(ctx().db, { username: "batch-contributor", roleId: "contributor" });
    other = await createPrincipal(ctx().db, { username: "batch-other", roleId: "contributor" });
  });

  /** Stories written through the stories repository (the search index follows), as the stories module writes them. */
  async function insertStories(
    count: number,
    overrides: (index: number) => Partial<Parameters<typeof storyRow>[0]> = () => ({}),
  ): Promise<string[]> {
    const { db } = ctx();
    const index = buildSearch(db).index;
    const ids: string[] = [];
    await db.kysely.transaction().execute(async (trx) => {
      const repository = new StoriesRepository(trx, db.adapter, index);
      for (let i = 0; i < count; i++) {
        const id = randomUUID();
        ids.push(id);
        await repository.insertStory(
          storyRow({
            id,
            title: `码头 ${i}`,
            caption: `早上的码头 harbour ${i}`,
            properties: JSON.stringify({ storyLevel: "normal" }),
            created_by: contributor.id,
            ...overrides(i),
          }),
        );
      }
    });
    return ids;
  }

  async function finished(who: TestPrincipal, batchId: string): Promise<Batch> {
    const deadline = Date.now() + 10 * 60_000;
    for (;;) {
      const response = await call(who, "GET", `/story-batch-edits/${batchId}`);
      expect(response.statusCode, response.body).toBe(200);
      const batch = response.json().data as Batch;
      if (batch.state === "succeeded" || batch.state === "failed") return batch;
      if (Date.now() > deadline) throw new Error(`batch ${batchId} did not finish: ${response.body}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  async function items(who: TestPrincipal, batchId: string, outcome?: string): Promise<Item[]> {
    const response = await call(
      who,
      "GET",
      `/story-batch-edits/${batchId}/items?size=1000${outcome ? `&outcome=${outcome}` : ""}`,
    );
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.content;
  }

  it(`edits ${BIG} stories as one job: keywords appended and a field set, history, search index, refusals`, async () => {
    // Ten already carry the credit: the set touches the others only.
    const stories = await insertStories(BIG, (i) =>
      i < 10 ? { properties: JSON.stringify({ storyLevel: "normal", credit: "新华社" }) } : {},
    );
    const closed = await insertStories(5, () => ({ library_id: "department" }));
    const othersDrafts = await insertStories(3, () => ({ status: "draft", created_by: other.id }));
    const selection = [...stories, ...closed, ...othersDrafts];
    const operations = [
      { op: "add", field: "keywords", values: ["batchword", "批量"] },
      { op: "set", field: "credit", value: "新华社" },
    ];

    const preview = await call(contributor, "POST", "/story-batch-edits/preview", { storyIds: selection, operations });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().data).toEqual({
      total: BIG + 8,
      changed: BIG,
      unchanged: 0,
      refused: 8,
      refusedReasons: expect.arrayContaining([
        { reason: "not_found", count: 5 },
        { reason: "draft_of_another_user", count: 3 },
      ]),
      operations: [
        { index: 0, touches: BIG },
        { index: 1, touches: BIG - 10 },
      ],
    });

    const started = Date.now();
    const response = await call(contributor, "POST", "/story-batch-edits", { storyIds: selection, operations });
    expect(response.statusCode, response.body).toBe(200);
    const batch = response.json().data as Batch;
    expect(batch).toMatchObject({ state: "queued", total: BIG + 8, done: 0 });
    expect(batch.jobId).not.toBeNull();
    ctx().app.jobs.worker.start();
    const done = await finished(contributor, batch.id);
    const elapsed = Date.now() - started;
    console.log(`[bench] ${dialect}: batch edit of ${BIG} stories (2 operations) took ${elapsed} ms`);
    expect(done).toMatchObject({ state: "succeeded", done: BIG + 8, changed: BIG, refused: 8, progress: 100 });

    const refused = await items(contributor, batch.id, "refused");
    expect(refused.map((item) => item.storyId).sort()).toEqual([...closed, ...othersDrafts].sort());
    expect(refused.filter((item) => item.reason === "not_found")).toHaveLength(5);
    const changed = await items(contributor, batch.id, "changed");
    expect(changed).toHaveLength(BIG);
    expect(changed[20]!.fields.sort()).toEqual(["keywords", "properties.credit"]);
    expect(changed[0]!.fields).toEqual(["keywords"]);

    // Each story: revision +1, the history records the fields from what to what.
    const one = (await call(contributor, "GET", `/stories/product/${stories[20]}`)).json().data;
    expect(one.keywords).toEqual(["batchword", "批量"]);
    expect(one.properties).toMatchObject({ credit: "新华社", storyLevel: "normal" });
    expect(one.revision).toBe(2);
    const history = (await call(contributor, "GET", `/story-actions?libraryId=product&storyId=${stories[20]}`)).json()
      .data.content;
    expect(history[0]).toMatchObject({
      action: "edit",
      username: "batch-contributor",
      details: {
        changes: expect.arrayContaining([
          { field: "keywords", from: [], to: ["batchword", "批量"] },
          { field: "properties.credit", from: null, to: "新华社" },
        ]),
      },
    });
    const untouched = (await ctx().module.queries.findMany([closed[0]!]))[0]!;
    expect(untouched.revision).toBe(1);
    expect(untouched.keywords).toEqual([]);

    // The search index followed: the new keyword finds every one of them.
    const found = await call(contributor, "GET", "/stories?fulltext=batchword&size=10&facets=false");
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().data.totalElements).toBe(BIG);
    const byKeyword = await call(contributor, "GET", "/stories?keywords=批量&size=1&facets=false");
    expect(byKeyword.json().data.totalElements).toBe(BIG);

    // Run again, the same selection: nothing left to change.
    const again = await call(contributor, "POST", "/story-batch-edits/preview", {
      storyIds: stories.slice(0, 50),
      operations,
    });
    expect(again.json().data).toMatchObject({ changed: 0, unchanged: 50, refused: 0 });
    // Another user does not see the batch.
    expect((await call(other, "GET", `/story-batch-edits/${batch.id}`)).statusCode).toBe(404);
    expect((await call(admin, "GET", `/story-batch-edits/${batch.id}`)).statusCode).toBe(200);
    // The job's own deadline (finished) is the bound; 1 000 stories on PostgreSQL took 65 s at load 16, over 120 s at 24.
  }, 900_000);

  it("runs a small selection inside the request: find and replace, remove, template, refused properties", async () => {
    const stories = await insertStories(4, (i) => ({
      caption: i === 3 ? "nothing to find" : "Harbour at dawn, the harbour wakes",
      keywords: JSON.stringify(["Old", "keep"]),
      tags: JSON.stringify(["t1"]),
    }));
    const template = await call(admin, "POST", "/metadata-templates", {
      name: "batch desk",
      values: { source: "{user} desk", tags: ["desk"] },
    });
    expect(template.statusCode, template.body).toBe(200);
    const operations = [
      { op: "replace", find: "harbour", replace: "port", matchCase: false },
      { op: "remove", field: "keywords", values: ["old"] },
      { op: "template", templateId: template.json().data.id },
    ];
    const response = await call(contributor, "POST", "/story-batch-edits", { storyIds: stories, operations });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ state: "succeeded", changed: 4, jobId: null });
    const [first, last] = await ctx()
      .module.queries.findMany([stories[0]!, stories[3]!])
      .then((found) => [stories[0], stories[3]].map((id) => found.find((story) => story.id === id)!));
    expect(first).toMatchObject({
      caption: "port at dawn, the port wakes",
      keywords: ["keep"],
      tags: ["t1", "desk"],
      source: "batch-contributor desk",
      revision: 2,
    });
    expect(last!.caption).toBe("nothing to find");

    // Matching case: only the lower-case word.
    const cased = await call(contributor, "POST", "/story-batch-edits/preview", {
      storyIds: stories,
      operations: [{ op: "replace", find: "Port", replace: "x", matchCase: true }],
    });
    expect(cased.json().data).toMatchObject({ changed: 0, unchanged: 4 });

    // A property the role may not edit: every story refused with the single edit's reason, none changed.
    const rules = await call(admin, "PUT", "/property-access/contributor", {
      rules: [{ property: "sourceFee", visible: true, editable: false }],
    });
    expect(rules.statusCode, rules.body).toBe(200);
    const locked = [{ op: "setProperty", name: "sourceFee", value: 10 }];
    const preview = await call(contributor, "POST", "/story-batch-edits/preview", {
      storyIds: stories,
      operations: locked,
    });
    expect(preview.json().data).toMatchObject({
      refused: 4,
      refusedReasons: [{ reason: "property_not_editable", count: 4 }],
    });
    const refused = await call(contributor, "POST", "/story-batch-edits", { storyIds: stories, operations: locked });
    expect(refused.json().data).toMatchObject({ state: "succeeded", changed: 0, refused: 4 });
    expect((await items(contributor, refused.json().data.id))[0]).toMatchObject({
      outcome: "refused",
      reason: "property_not_editable",
    });
    const after = (await ctx().module.queries.findMany([stories[0]!]))[0]!;
    expect(after.revision).toBe(2);
  });

  it("takes all stories matching a search: resolved when it starts (a snapshot), counted by the preview", async () => {
    const word = `searchbatch${randomUUID()
      .replace(/[^a-f]/g, "")
      .slice(0, 8)}`;
    const matching = await insertStories(25, () => ({ keywords: JSON.stringify([word]) }));
    // Another user's draft matches too, and is not listed to the contributor: not in the batch.
    await insertStories(2, () => ({ keywords: JSON.stringify([word]), status: "draft", created_by: other.id }));
    const search = { keywords: word, types: "photo" };
    const operations = [{ op: "add", field: "tags", values: ["整批"] }];

    const preview = await call(contributor, "POST", "/story-batch-edits/preview", { search, operations });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().data).toMatchObject({ total: 25, changed: 25, refused: 0 });

    ctx().app.jobs.worker.start(); // 25 stories run as a job
    const started = await call(contributor, "POST", "/story-batch-edits", { search, operations });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().data).toMatchObject({ total: 25 });
    // Stories matching after the start are not the batch's.
    const later = await insertStories(3, () => ({ keywords: JSON.stringify([word]) }));
    const batch = await finished(contributor, started.json().data.id);
    expect(batch).toMatchObject({ state: "succeeded", total: 25, changed: 25 });
    expect((await items(contributor, batch.id)).map((item) => item.storyId).sort()).toEqual([...matching].sort());
    const tagged = await call(
      contributor,
      "GET",
      `/stories?tag=${encodeURIComponent("整批")}&keywords=${word}&size=100`,
    );
    expect(tagged.json().data.totalElements).toBe(25);
    expect((await ctx().module.queries.findMany(later)).every((story) => story.tags.length === 0)).toBe(true);

    // Neither or both of the targets, a search matching nothing: refused, naming the field.
    for (const body of [{ operations }, { storyIds: matching, search, operations }]) {
      const response = await call(contributor, "POST", "/story-batch-edits/preview", body);
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain("storyIds");
    }
    const nothing = await call(contributor, "POST", "/story-batch-edits", {
      search: { keywords: `${word}none` },
      operations,
    });
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json()).toMatchObject({ error: "no_stories", msg: "search: no story matches" });
  });

  it("validates the request, naming the field", async () => {
    const bad = await call(contributor, "POST", "/story-batch-edits", {
      storyIds: [randomUUID()],
      operations: [{ op: "set", field: "width", value: "1" }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain("operations");
    const none = await call(contributor, "POST", "/story-batch-edits/preview", { storyIds: [], operations: [] });
    expect(none.statusCode).toBe(400);
    const template = await call(contributor, "POST", "/story-batch-edits/preview", {
      storyIds: [randomUUID()],
      operations: [{ op: "template", templateId: randomUUID() }],
    });
    expect(template.statusCode).toBe(404);
    expect(template.body).toContain("operations.0.templateId");
  });
});
