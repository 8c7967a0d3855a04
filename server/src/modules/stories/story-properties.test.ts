import { beforeAll, describe, expect, it } from "vitest";
import { callApi } from "../../test/api-call.js";
import { describeEachDialect, useTestApp } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { checkProperties, type PropertyDefinition } from "./story-properties.js";

interface StoryView {
  id: string;
  status: string;
  properties: Record<string, unknown>;
}

describe("checkProperties", () => {
  const definitions: PropertyDefinition[] = [
    { name: "level", label: "级别", kind: "select", required: true, options: [{ value: "a", label: "A" }] },
    { name: "count", label: "Count", kind: "number", required: false, options: [] },
    { name: "day", label: "Day", kind: "date", required: false, options: [] },
    { name: "flag", label: "Flag", kind: "switch", required: false, options: [] },
    { name: "many", label: "Many", kind: "multiselect", required: false, options: [{ value: "x", label: "X" }] },
  ];
  const check =
    (patch: Record<string, unknown>, current: Record<string, unknown> = {}) =>
    () =>
      checkProperties(definitions, patch, { path: "p", current, complete: true });

  it("takes values that fit their kind, keys no definition names, and a required value already stored", () => {
    expect(check({ level: "a", count: 3, day: "2024-02-29", flag: false, many: ["x"], camera: "EOS" })).not.toThrow();
    expect(check({}, { level: "a" })).not.toThrow();
  });

  it("refuses a missing required value, a value of the wrong kind and a value the code list lacks", () => {
    expect(check({})).toThrow("p.level: 级别 (level) is required");
    expect(check({ level: null }, { level: "a" })).toThrow("p.level: 级别 (level) is required");
    expect(check({ level: "b" })).toThrow(`p.level: "b" is not one of the code list's values (a)`);
    expect(check({ level: "a", count: "3" })).toThrow("p.count: must be a number");
    expect(check({ level: "a", day: "2024-13-01" })).toThrow("p.day: must be a date written YYYY-MM-DD");
    expect(check({ level: "a", flag: "yes" })).toThrow("p.flag: must be true or false");
    expect(check({ level: "a", many: ["x", "y"] })).toThrow("p.many: holds values the code list lacks: y (it has x)");
  });
});

describeEachDialect("per-file custom properties on commit", (dialect) => {
  const ctx = useTestApp(dialect);
  let admin: TestPrincipal;

  beforeAll(async () => {
    admin = await createPrincipal(ctx().db, { username: "props-admin", admin: true });
  });

  const draft = (title: string) =>
    callApi<StoryView>(ctx().app, admin, "POST", "/workflow-story-create/photo", { libraryId: "product", title });

  it("stores the batch's properties with each file's own on top, and search finds the text ones", async () => {
    const a = await draft("props a");
    const b = await draft("props b");
    const committed = await callApi<StoryView[]>(ctx().app, admin, "POST", "/workflow-story-create/photo/commit", {
      libraryId: "product",
      storyIds: [a.id, b.id],
      metadata: { properties: { storyLevel: "normal", location: "Harbourquay" } },
      properties: {
        [a.id]: { storyLevel: "urgent", location: "Zhujiangpier", shotDate: "2024-05-01", copyright: "owned" },
      },
    });
    expect(committed.map((story) => [story.id, story.status])).toEqual([
      [a.id, "committed"],
      [b.id, "committed"],
    ]);
    expect(committed[0]!.properties).toMatchObject({
      storyLevel: "urgent",
      location: "Zhujiangpier",
      shotDate: "2024-05-01",
      copyright: "owned",
    });
    expect(committed[1]!.properties).toMatchObject({ storyLevel: "normal", location: "Harbourquay" });
    expect(committed[1]!.properties).not.toHaveProperty("copyright");
    const found = async (text: string) =>
      (await callApi<{ content: { id: string }[] }>(ctx().app, admin, "GET", `/stories?fulltext=${text}`)).content.map(
        (story) => story.id,
      );
    expect(await found("Zhujiangpier")).toEqual([a.id]);
    expect(await found("Harbourquay")).toEqual([b.id]);
  });

  it("refuses a missing required property, a value the code list lacks and a wrong kind, committing nothing", async () => {
    const a = await draft("props refused a");
    const b = await draft("props refused b");
    const commit = (body: Record<string, unknown>) =>
      callApi<{ msg: string }>(
        ctx().app,
        admin,
        "POST",
        "/workflow-story-create/photo/commit",
        { libraryId: "product", storyIds: [a.id, b.id], ...body },
        400,
      );
    const missing = await commit({ properties: { [a.id]: { storyLevel: "normal" }, [b.id]: { location: "x" } } });
    expect(missing.msg).toBe(`properties.${b.id}.storyLevel: 稿件级别 (storyLevel) is required`);
    const option = await commit({ metadata: { properties: { storyLevel: "sometimes" } } });
    expect(option.msg).toBe(
      `metadata.properties.storyLevel: "sometimes" is not one of the code list's values (normal, important, urgent, flash)`,
    );
    const kind = await commit({
      metadata: { properties: { storyLevel: "normal" } },
      properties: { [a.id]: { shotDate: "yesterday" } },
    });
    expect(kind.msg).toBe(`properties.${a.id}.shotDate: must be a date written YYYY-MM-DD`);
    const stranger = "00000000-0000-4000-8000-000000000001";
    const notInBatch = await commit({ properties: { [stranger]: { storyLevel: "normal" } } });
    expect(notInBatch.msg).toBe(`properties.${stranger}: not one of storyIds`);
    for (const story of [a, b]) {
      const stored = await callApi<StoryView>(ctx().app, admin, "GET", `/stories/product/${story.id}`);
      expect([stored.status, stored.properties]).toEqual(["draft", {}]);
    }
  });

  it("commits without properties as before: nothing is required then", async () => {
    const a = await draft("props none");
    const committed = await callApi<StoryView[]>(ctx().app, admin, "POST", "/workflow-story-create/photo/commit", {
      libraryId: "product",
      storyIds: [a.id],
    });
    expect(committed[0]!.status).toBe("committed");
  });
});

describeEachDialect("custom properties on story edit", (dialect) => {
  const ctx = useTestApp(dialect);
  let admin: TestPrincipal;

  beforeAll(async () => {
    admin = await createPrincipal(ctx().db, { username: "props-edit-admin", admin: true });
  });

  const edit = <T>(story: StoryView, properties: Record<string, unknown>, status = 200) =>
    callApi<T>(
      ctx().app,
      admin,
      "PUT",
      `/workflow-story-edit/photo/${story.id}?libraryId=product`,
      { title: "edited", properties },
      status,
    );
  const stored = async (story: StoryView) =>
    callApi<StoryView & { title: string }>(ctx().app, admin, "GET", `/stories/product/${story.id}`);

  it("refuses a value the code list lacks or of the wrong kind, naming the field, and changes nothing", async () => {
    const story = await callApi<StoryView>(ctx().app, admin, "POST", "/workflow-story-create/photo", {
      libraryId: "product",
      title: "edit props",
    });
    const option = await edit<{ msg: string; error: string }>(story, { storyLevel: "sometimes" }, 400);
    expect(option).toMatchObject({
      error: "invalid_property",
      msg: `properties.storyLevel: "sometimes" is not one of the code list's values (normal, important, urgent, flash)`,
    });
    const kind = await edit<{ msg: string }>(story, { storyLevel: "normal", shotDate: "yesterday" }, 400);
    expect(kind.msg).toBe("properties.shotDate: must be a date written YYYY-MM-DD");
    expect(await stored(story)).toMatchObject({ title: "edit props", properties: {} });

    // A draft may be filled in over several edits: the required level is checked on commit.
    const located = await edit<StoryView>(story, { location: "Harbourquay", camera: "EOS R5" });
    expect(located.properties).toEqual({ location: "Harbourquay", camera: "EOS R5" });
  });

  it("keeps a committed story's required properties: set, changed, never emptied", async () => {
    const story = await callApi<StoryView>(ctx().app, admin, "POST", "/workflow-story-create/photo", {
      libraryId: "product",
      title: "edit required",
    });
    await callApi(ctx().app, admin, "POST", "/workflow-story-create/photo/commit", {
      libraryId: "product",
      storyIds: [story.id],
      metadata: { properties: { storyLevel: "normal" } },
    });
    const urgent = await edit<StoryView>(story, { storyLevel: "urgent", shotDate: "2024-05-01" });
    expect(urgent.properties).toMatchObject({ storyLevel: "urgent", shotDate: "2024-05-01" });
    const emptied = await edit<{ msg: string }>(story, { storyLevel: null }, 400);
    expect(emptied.msg).toBe("properties.storyLevel: 稿件级别 (storyLevel) is required");
    expect((await stored(story)).properties).toMatchObject({ storyLevel: "urgent" });
    // Removing an optional one is fine.
    const cleared = await edit<StoryView>(story, { shotDate: null });
    expect(cleared.properties).not.toHaveProperty("shotDate");
  });

  it("edits the properties of a story committed without them: the required ones it never had do not block", async () => {
    const story = await callApi<StoryView>(ctx().app, admin, "POST", "/workflow-story-create/photo", {
      libraryId: "product",
      title: "edit without level",
    });
    await callApi(ctx().app, admin, "POST", "/workflow-story-create/photo/commit", {
      libraryId: "product",
      storyIds: [story.id],
    });
    const credited = await edit<StoryView>(story, { credit: "新华社", shotDate: "2024-05-01" });
    expect(credited.properties).toEqual({ credit: "新华社", shotDate: "2024-05-01" });
    const emptied = await edit<{ msg: string }>(story, { storyLevel: null }, 400);
    expect(emptied.msg).toBe("properties.storyLevel: 稿件级别 (storyLevel) is required");
  });
});
