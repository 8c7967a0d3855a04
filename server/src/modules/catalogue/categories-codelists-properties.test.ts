import { beforeAll, expect, it } from "vitest";
import { buildApp } from "../../app.js";
import { callApi } from "../../test/api-call.js";
import { describeEachDialect, useTestApp } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { defaultValueProblem } from "./properties/property.service.js";

interface Category {
  id: string;
  name: string;
  parentId: string | null;
  parentName: string | null;
  childCount: number;
}
interface Codelist {
  id: string;
  code: string;
  name: string;
  optionCount: number;
}
interface Option {
  id: string;
  value: string;
  label: string;
}
interface Property {
  id: string;
  name: string;
  label: string;
  kind: string;
  libraryId: string | null;
  isquick: boolean;
  required: boolean;
  defaultValue: string | null;
  options: { value: string; label: string }[];
}
interface Page<T> {
  content: T[];
  totalElements: number;
}

it("checks a default value against its kind and options", () => {
  const options = ["normal", "urgent"];
  expect(defaultValueProblem({ kind: "number", defaultValue: "12.5" }, [])).toBeNull();
  expect(defaultValueProblem({ kind: "number", defaultValue: "twelve" }, [])).toBe("must be a number");
  expect(defaultValueProblem({ kind: "date", defaultValue: "2024-02-30x" }, [])).toMatch(/YYYY-MM-DD/);
  expect(defaultValueProblem({ kind: "switch", defaultValue: "yes" }, [])).toBe("must be true or false");
  expect(defaultValueProblem({ kind: "select", defaultValue: "urgent" }, options)).toBeNull();
  expect(defaultValueProblem({ kind: "multiselect", defaultValue: "urgent, flash" }, options)).toBe(
    "holds values the code list lacks: flash",
  );
  expect(defaultValueProblem({ kind: "text", defaultValue: null }, [])).toBeNull();
});

describeEachDialect("categories, code lists and story properties", (dialect) => {
  const ctx = useTestApp(dialect);
  let admin: TestPrincipal;
  let viewer: TestPrincipal;

  beforeAll(async () => {
    admin = await createPrincipal(ctx().db, { username: "structure-admin", admin: true });
    viewer = await createPrincipal(ctx().db, { username: "structure-viewer", roleId: "viewer" });
  });

  it("keeps categories a tree with names unique among siblings", async () => {
    const { app } = ctx();
    const sport = await callApi<Category>(app, admin, "POST", "/categories", { name: "Sport" });
    const football = await callApi<Category>(app, admin, "POST", "/categories", {
      name: "Football",
      parentId: sport.id,
    });
    expect(football).toMatchObject({ parentId: sport.id, parentName: "Sport" });
    // The same name elsewhere in the tree is fine; under the same parent it is not.
    await callApi(app, admin, "POST", "/categories", { name: "Football" });
    const clash = await callApi<{ msg: string }>(
      app,
      admin,
      "POST",
      "/categories",
      { name: "FOOTBALL", parentId: sport.id },
      409,
    );
    expect(clash.msg).toContain("same parent");
    const cycle = await callApi<{ msg: string }>(
      app,
      admin,
      "PUT",
      `/categories/${sport.id}`,
      { name: "Sport", parentId: football.id },
      400,
    );
    expect(cycle.msg).toContain("parentId");

    const withChildren = await callApi<{ msg: string }>(
      app,
      admin,
      "DELETE",
      `/categories/${sport.id}`,
      undefined,
      409,
    );
    expect(withChildren).toMatchObject({
      msg: 'the category "Sport" has 1 subcategory; delete or move them first',
      msgCode: "catalogue.hasChildren",
      msgParams: { name: "Sport", count: 1 },
    });
    // Merged away it would leave its subcategory without a parent: refused the same way, in the user's language.
    const other = await callApi<Category>(app, admin, "POST", "/categories", { name: "Other sport" });
    const mergedWithChildren = await callApi(
      app,
      admin,
      "DELETE",
      `/categories/${sport.id}?mergeInto=${other.id}`,
      undefined,
      409,
    );
    expect(mergedWithChildren).toEqual(withChildren);
    await callApi(app, admin, "DELETE", `/categories/${other.id}`);
    const all = await callApi<Category[]>(app, viewer, "GET", "/categories/all");
    expect(all.find((category) => category.id === sport.id)?.childCount).toBe(1);
    await callApi(app, admin, "DELETE", `/categories/${football.id}`);
    await callApi(app, admin, "DELETE", `/categories/${sport.id}`);
    await callApi(app, viewer, "POST", "/categories", { name: "Viewer" }, 403);
  });

  it("refuses to delete a category stories use", async () => {
    const { app, config, db } = ctx();
    const culture = await callApi<Category>(app, admin, "POST", "/categories", { name: "Opera" });
    const withStories = await buildApp({
      config,
      db,
      logger: false,
      catalogueUsage: { count: async (kind) => (kind === "category" ? 12 : 0) },
    });
    try {
      await withStories.ready();
      const refused = await callApi<{ msg: string }>(
        withStories,
        admin,
        "DELETE",
        `/categories/${culture.id}`,
        undefined,
        409,
      );
      expect(refused.msg).toBe('the category "Opera" is used by 12 stories and cannot be deleted');
    } finally {
      await withStories.close();
    }
  });

  it("serves a seeded code list's options by id or code, and manages options", async () => {
    const { app } = ctx();
    const seeded = await callApi<Page<Codelist>>(
      app,
      viewer,
      "GET",
      `/codelists?keyword=${encodeURIComponent("稿件")}`,
    );
    const level = seeded.content[0]!;
    expect(level).toMatchObject({ code: "storyLevel", name: "稿件级别", optionCount: 4 });
    const byCode = await callApi<Option[]>(app, viewer, "GET", "/codelists/codelist/option?id=storyLevel");
    const byId = await callApi<Option[]>(app, viewer, "GET", `/codelists/codelist/option?id=${level.id}`);
    expect(byId).toEqual(byCode);
    expect(byCode.map((option) => option.value)).toEqual(["normal", "important", "urgent", "flash"]);
    await callApi(app, viewer, "GET", "/codelists/codelist/option?id=nothing", undefined, 404);

    const list = await callApi<Codelist>(app, admin, "POST", "/codelists", { code: "region", name: "地区" });
    await callApi(app, admin, "POST", "/codelists", { code: "REGION", name: "Other" }, 409);
    await callApi(app, admin, "POST", "/codelists", { code: "region2", name: "地区" }, 409);
    const badCode = await callApi<{ msg: string }>(app, admin, "POST", "/codelists", { code: "1x", name: "x" }, 400);
    expect(badCode.msg).toContain("body.code");

    const north = await callApi<Option>(app, admin, "POST", `/codelists/${list.id}/options`, {
      value: "north",
      label: "华北",
      sortOrder: 2,
    });
    await callApi(app, admin, "POST", `/codelists/${list.id}/options`, { value: "east", label: "华东", sortOrder: 1 });
    await callApi(app, admin, "POST", `/codelists/${list.id}/options`, { value: "north", label: "again" }, 409);
    await callApi(app, admin, "PUT", `/codelists/${list.id}/options/${north.id}`, {
      value: "north",
      label: "华北地区",
      sortOrder: 0,
    });
    const options = await callApi<Page<Option>>(app, admin, "GET", `/codelists/${list.id}/options`);
    expect(options.content.map((option) => option.label)).toEqual(["华北地区", "华东"]);
    await callApi(app, admin, "DELETE", `/codelists/${list.id}/options/${north.id}`);
    await callApi(app, viewer, "POST", `/codelists/${list.id}/options`, { value: "west", label: "西" }, 403);
    await callApi(app, admin, "DELETE", `/codelists/${list.id}`);
  });

  it("refuses to delete an option that story properties have as their default", async () => {
    const { app } = ctx();
    const level = (await callApi<Page<Codelist>>(app, admin, "GET", "/codelists?keyword=storyLevel")).content[0]!;
    const options = await callApi<Page<Option>>(app, admin, "GET", `/codelists/${level.id}/options`);
    const normal = options.content.find((option) => option.value === "normal")!;
    const refused = await callApi<{ msg: string }>(
      app,
      admin,
      "DELETE",
      `/codelists/${level.id}/options/${normal.id}`,
      undefined,
      409,
    );
    // The seeded storyLevel of photo, video and audio default to it.
    expect(refused.msg).toBe('the option "normal" is the default value of 3 story properties and cannot be deleted');
    const spare = await callApi<Option>(app, admin, "POST", `/codelists/${level.id}/options`, {
      value: "spare",
      label: "备用",
    });
    await callApi(app, admin, "DELETE", `/codelists/${level.id}/options/${spare.id}`);
  });

  it("refuses to delete a code list a story property uses", async () => {
    const { app } = ctx();
    const rights = (await callApi<Page<Codelist>>(app, admin, "GET", "/codelists?keyword=copyright")).content[0]!;
    const refused = await callApi<{ msg: string }>(app, admin, "DELETE", `/codelists/${rights.id}`, undefined, 409);
    expect(refused.msg).toBe('the code list "版权类型" is used by 3 story properties and cannot be deleted');
    expect(refused).toMatchObject({
      msgCode: "catalogue.inUseByProperties",
      msgParams: { name: "版权类型", count: 3 },
    });
  });

  it("serves the seeded properties of each story type, quick ones first", async () => {
    const { app } = ctx();
    const photo = await callApi<Property[]>(app, viewer, "GET", "/properties/list?storytype=photo");
    expect(photo.map((property) => property.name)).toEqual([
      "storyLevel",
      "location",
      "shotDate",
      "copyright",
      "exclusive",
    ]);
    expect(photo[0]).toMatchObject({ kind: "select", required: true, defaultValue: "normal", isquick: true });
    expect(photo[0]!.options.map((option) => option.value)).toEqual(["normal", "important", "urgent", "flash"]);
    const quickAudio = await callApi<Property[]>(app, viewer, "GET", "/properties/list?storytype=audio&isquick=true");
    expect(quickAudio.map((property) => property.name)).toEqual(["storyLevel", "programme"]);
    const slowVideo = await callApi<Property[]>(app, viewer, "GET", "/properties/list?storytype=video&isquick=false");
    expect(slowVideo.every((property) => !property.isquick)).toBe(true);
    expect(slowVideo.map((property) => property.name)).toContain("shotList");
  });

  it("lets a library add and override properties of its own", async () => {
    const { app } = ctx();
    const level = (await callApi<Page<Codelist>>(app, admin, "GET", "/codelists?keyword=storyLevel")).content[0]!;
    const own = await callApi<Property>(app, admin, "POST", "/properties", {
      storyType: "photo",
      libraryId: "sports",
      name: "match",
      label: "赛事",
      kind: "text",
      isquick: true,
      sortOrder: 0,
    });
    await callApi(app, admin, "POST", "/properties", {
      storyType: "photo",
      libraryId: "sports",
      name: "storyLevel",
      label: "体育稿件级别",
      kind: "select",
      codelistId: level.id,
      defaultValue: "important",
      required: false,
    });
    const sports = await callApi<Property[]>(app, viewer, "GET", "/properties/list?storytype=photo&libraryId=sports");
    // The library's storyLevel replaces every library's and is not quick: it follows the quick ones.
    expect(sports.map((property) => property.name)).toEqual([
      "match",
      "location",
      "storyLevel",
      "shotDate",
      "copyright",
      "exclusive",
    ]);
    expect(sports.find((property) => property.name === "storyLevel")).toMatchObject({
      label: "体育稿件级别",
      libraryId: "sports",
    });
    // Other libraries see only the properties of every library.
    const news = await callApi<Property[]>(app, viewer, "GET", "/properties/list?storytype=photo&libraryId=news");
    expect(news.map((property) => property.name)).not.toContain("match");
    const video = await callApi<Property[]>(app, viewer, "GET", "/properties/list?storytype=video&libraryId=sports");
    expect(video.map((property) => property.name)).not.toContain("match");

    const back = await callApi<Page<Property>>(app, admin, "GET", "/properties?storytype=photo&libraryId=sports");
    expect(back.totalElements).toBe(2);
    const everyLibrary = await callApi<Page<Property>>(app, admin, "GET", "/properties?storytype=photo&libraryId=*");
    expect(everyLibrary.totalElements).toBe(5);

    await callApi(app, admin, "PUT", `/properties/${own.id}`, {
      storyType: "photo",
      libraryId: "sports",
      name: "match",
      label: "赛事名称",
      kind: "textarea",
      isquick: false,
    });
    const changed = await callApi<Property[]>(
      app,
      viewer,
      "GET",
      "/properties/list?storytype=photo&libraryId=sports&isquick=false",
    );
    expect(changed.find((property) => property.name === "match")).toMatchObject({
      label: "赛事名称",
      kind: "textarea",
    });
    await callApi(app, admin, "DELETE", `/properties/${own.id}`);
  });

  it("refuses bad and duplicate properties, naming the field", async () => {
    const { app } = ctx();
    const base = { storyType: "video", name: "reel", label: "Reel", kind: "text" };
    await callApi(app, admin, "POST", "/properties", base);
    const duplicate = await callApi<{ msg: string }>(app, admin, "POST", "/properties", { ...base, name: "REEL" }, 409);
    expect(duplicate.msg).toContain('"REEL"');
    const noList = await callApi<{ msg: string }>(
      app,
      admin,
      "POST",
      "/properties",
      { ...base, name: "pick", kind: "select" },
      400,
    );
    expect(noList.msg).toContain("codelistId");
    const badDefault = await callApi<{ msg: string }>(
      app,
      admin,
      "POST",
      "/properties",
      { ...base, name: "count", kind: "number", defaultValue: "many" },
      400,
    );
    expect(badDefault.msg).toBe("defaultValue: must be a number");
    const badKind = await callApi<{ msg: string }>(app, admin, "POST", "/properties", { ...base, kind: "colour" }, 400);
    expect(badKind.msg).toContain("body.kind");
    const badName = await callApi<{ msg: string }>(
      app,
      admin,
      "POST",
      "/properties",
      { ...base, name: "has space" },
      400,
    );
    expect(badName.msg).toContain("body.name");
    const badType = await callApi<{ msg: string }>(
      app,
      viewer,
      "GET",
      "/properties/list?storytype=movie",
      undefined,
      400,
    );
    expect(badType.msg).toContain("querystring.storytype");
    await callApi(app, viewer, "POST", "/properties", { ...base, name: "other" }, 403);
  });
});
