import { beforeAll, expect, it } from "vitest";
import { buildApp } from "../../../app.js";
import { callApi } from "../../../test/api-call.js";
import { describeEachDialect, useTestApp } from "../../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../../test/principals.js";
import type { CatalogueUsage, UsageKind } from "../shared/catalogue-usage.js";

interface Entry {
  id: string;
  name: string;
  [key: string]: unknown;
}
interface Page<T> {
  content: T[];
  totalElements: number;
  size: number;
  number: number;
}

/** The spec's paths of the simple entries (spec section 7). */
const kinds = [
  { noun: "tag", list: "/tag", create: "/tag", update: "/tag", remove: "/tag" },
  { noun: "theme", list: "/theme", create: "/theme", update: "/theme", remove: "/theme" },
  { noun: "source", list: "/source", create: "/source", update: "/source", remove: "/source" },
  { noun: "keyword", list: "/keyword", create: "/keyword", update: "/keyword", remove: "/keyword" },
  {
    noun: "author",
    list: "/nrauthor/select",
    create: "/nrauthor/create",
    update: "/nrauthor/update",
    remove: "/nrauthor/delete",
  },
] as const;

describeEachDialect("catalogue entries", (dialect) => {
  const ctx = useTestApp(dialect);
  let admin: TestPrincipal;
  let viewer: TestPrincipal;

  beforeAll(async () => {
    admin = await createPrincipal(ctx().db, { username: "catalogue-admin", admin: true });
    viewer = await createPrincipal(ctx().db, { username: "catalogue-viewer", roleId: "viewer" });
  });

  for (const kind of kinds) {
    it(`${kind.noun}: creates, lists, changes and deletes`, async () => {
      const { app } = ctx();
      const created = await callApi<Entry>(app, admin, "POST", kind.create, { name: `台风 ${kind.noun}` });
      expect(created).toMatchObject({ name: `台风 ${kind.noun}` });
      expect(created.id).toMatch(/^[0-9a-f-]{36}$/);

      const listed = await callApi<Page<Entry>>(
        app,
        viewer,
        "GET",
        `${kind.list}?keyword=${encodeURIComponent("台风")}`,
      );
      expect(listed.content.map((entry) => entry.id)).toEqual([created.id]);
      expect(listed).toMatchObject({ totalElements: 1, size: 10, number: 0 });

      const changed = await callApi<Entry>(app, admin, "PUT", kind.update, {
        id: created.id,
        name: `Typhoon ${kind.noun}`,
      });
      expect(changed.name).toBe(`Typhoon ${kind.noun}`);
      const afterChange = await callApi<Page<Entry>>(app, admin, "GET", `${kind.list}?name=typhoon`);
      expect(afterChange.content.map((entry) => entry.name)).toEqual([`Typhoon ${kind.noun}`]);

      await callApi(app, admin, "DELETE", `${kind.remove}/${created.id}`);
      const afterDelete = await callApi<Page<Entry>>(app, admin, "GET", `${kind.list}?name=typhoon`);
      expect(afterDelete.totalElements).toBe(0);
      await callApi(app, admin, "DELETE", `${kind.remove}/${created.id}`, undefined, 404);
    });

    it(`${kind.noun}: refuses a duplicate name in any case with 409, and a viewer's writes with 403`, async () => {
      const { app } = ctx();
      const first = await callApi<Entry>(app, admin, "POST", kind.create, { name: `Election ${kind.noun}` });
      const duplicate = await callApi<{ msg: string; error: string }>(
        app,
        admin,
        "POST",
        kind.create,
        { name: `  ELECTION ${kind.noun} ` },
        409,
      );
      expect(duplicate.msg).toContain(`ELECTION ${kind.noun}`);
      expect(duplicate.error).toBe("duplicate_name");
      // The web app shows it in the user's language by its code.
      expect(duplicate).toMatchObject({
        msgCode: "catalogue.duplicateName",
        msgParams: { name: `ELECTION ${kind.noun}` },
      });

      const other = await callApi<Entry>(app, admin, "POST", kind.create, { name: `Budget ${kind.noun}` });
      await callApi(app, admin, "PUT", kind.update, { id: other.id, name: `election ${kind.noun}` }, 409);
      // Renaming an entry to its own name in another case is not a duplicate.
      await callApi(app, admin, "PUT", kind.update, { id: first.id, name: `ELECTION ${kind.noun}` });

      await callApi(app, viewer, "POST", kind.create, { name: `Viewer ${kind.noun}` }, 403);
      await callApi(app, viewer, "PUT", kind.update, { id: first.id, name: "renamed" }, 403);
      await callApi(app, viewer, "DELETE", `${kind.remove}/${first.id}`, undefined, 403);
    });
  }

  it("names the field of a bad request", async () => {
    const { app } = ctx();
    const blank = await callApi<{ msg: string }>(app, admin, "POST", "/tag", { name: "   " }, 400);
    expect(blank.msg).toContain("body.name");
    const badColour = await callApi<{ msg: string }>(app, admin, "POST", "/tag", { name: "x", color: "#12" }, 400);
    expect(badColour.msg).toContain("body.color");
    const badEmail = await callApi<{ msg: string }>(
      app,
      admin,
      "POST",
      "/nrauthor/create",
      { name: "李明", email: "not-an-email" },
      400,
    );
    expect(badEmail.msg).toContain("body.email");
    const badId = await callApi<{ msg: string }>(app, admin, "DELETE", "/theme/not-a-uuid", undefined, 400);
    expect(badId.msg).toContain("params.id");
    const badPage = await callApi<{ msg: string }>(app, admin, "GET", "/theme?page=-1", undefined, 400);
    expect(badPage.msg).toContain("querystring.page");
  });

  it("pages a list: zero-based page, size, total", async () => {
    const { app } = ctx();
    for (const name of ["page-a", "page-b", "page-c", "page-d", "page-e"]) {
      await callApi(app, admin, "POST", "/theme", { name, sortOrder: 1 });
    }
    const second = await callApi<Page<Entry>>(app, admin, "GET", "/theme?keyword=page-&page=1&size=2");
    expect(second).toMatchObject({ totalElements: 5, size: 2, number: 1 });
    expect(second.content.map((entry) => entry.name)).toEqual(["page-c", "page-d"]);
    // A LIKE wildcard in the keyword is a plain character.
    const wildcard = await callApi<Page<Entry>>(app, admin, "GET", "/theme?keyword=page%25");
    expect(wildcard.totalElements).toBe(0);
  });

  it("allows two authors of one name in different departments, not in the same one", async () => {
    const { app } = ctx();
    const photo = await callApi<Entry>(app, admin, "POST", "/nrauthor/create", {
      name: "王伟",
      department: "摄影部",
      penName: "老王",
      email: "wang@example.com",
    });
    expect(photo).toMatchObject({ penName: "老王", department: "摄影部", phone: null, email: "wang@example.com" });
    await callApi(app, admin, "POST", "/nrauthor/create", { name: "王伟", department: "Sports desk" });
    const clash = await callApi<{ msg: string }>(
      app,
      admin,
      "POST",
      "/nrauthor/create",
      { name: "王伟", department: "摄影部" },
      409,
    );
    expect(clash.msg).toContain("摄影部");
    const byPenName = await callApi<Page<Entry>>(
      app,
      admin,
      "GET",
      `/nrauthor/select?keyword=${encodeURIComponent("老王")}`,
    );
    expect(byPenName.content.map((author) => author.id)).toEqual([photo.id]);
  });

  it("serves every source unpaged and as select options (the seeded ones included)", async () => {
    const { app } = ctx();
    await callApi(app, admin, "POST", "/source", { name: "本报记者", sortOrder: 99 });
    const all = await callApi<Entry[]>(app, viewer, "GET", "/source/all");
    expect(all.map((source) => source.name)).toEqual(expect.arrayContaining(["新华社 Xinhua", "本报记者"]));
    expect(all.at(-1)?.name).toBe("本报记者");
    const options = await callApi<{ label: string; value: string }[]>(
      app,
      viewer,
      "GET",
      "/source/option?keyword=本报",
    );
    expect(options).toEqual([expect.objectContaining({ label: "本报记者", value: "本报记者" })]);
  });

  it("refuses to delete an entry stories use, saying how many", async () => {
    const { app, config, db } = ctx();
    const tag = await callApi<Entry>(app, admin, "POST", "/tag", { name: "航天" });
    const author = await callApi<Entry>(app, admin, "POST", "/nrauthor/create", { name: "张三" });
    const asked: { kind: UsageKind; entry: { id: string; name: string } }[] = [];
    const usage: CatalogueUsage = {
      count: async (kind, entry) => {
        asked.push({ kind, entry });
        return entry.name === "航天" ? 3 : entry.name === "张三" ? 1 : 0;
      },
    };
    const withStories = await buildApp({ config, db, logger: false, catalogueUsage: usage });
    try {
      await withStories.ready();
      const refused = await callApi<{ msg: string; error: string }>(
        withStories,
        admin,
        "DELETE",
        `/tag/${tag.id}`,
        undefined,
        409,
      );
      expect(refused).toMatchObject({
        error: "in_use",
        msg: 'the tag "航天" is used by 3 stories and cannot be deleted',
        msgCode: "catalogue.inUse",
        msgParams: { name: "航天", count: 3 },
      });
      const one = await callApi<{ msg: string }>(
        withStories,
        admin,
        "DELETE",
        `/nrauthor/delete/${author.id}`,
        undefined,
        409,
      );
      expect(one.msg).toBe('the author "张三" is used by 1 story and cannot be deleted');
      expect(asked).toEqual([
        { kind: "tag", entry: { id: tag.id, name: "航天" } },
        { kind: "author", entry: { id: author.id, name: "张三" } },
      ]);
      const still = await callApi<Page<Entry>>(withStories, admin, "GET", `/tag?name=${encodeURIComponent("航天")}`);
      expect(still.totalElements).toBe(1);
    } finally {
      await withStories.close();
    }
  });
});
