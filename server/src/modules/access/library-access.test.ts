import { beforeAll, expect, it } from "vitest";
import { describeEachDialect, useTestApp } from "../../test/dialects.js";
import { createPrincipal } from "../../test/principals.js";
import { GrantsRepository } from "./grants.repository.js";
import { LibraryAccess } from "./library-access.js";
import { RolesRepository } from "./roles.repository.js";

describeEachDialect("library access for a list of libraries", (dialect) => {
  const ctx = useTestApp(dialect);
  const libraries = ["product", "material", "lib-a", "lib-b", "lib-none"];
  const now = new Date().toISOString();
  let access: LibraryAccess;
  const users: Record<string, { id: string; admin: boolean; roleId: string | null }> = {};

  beforeAll(async () => {
    const grants = new GrantsRepository(ctx().db);
    access = new LibraryAccess(grants);
    const insert = (grant: Parameters<GrantsRepository["insert"]>[0]) => grants.insert(grant, now);
    // A role of its own, so the seeded grants of the built-in roles do not decide the outcome.
    const role = await new RolesRepository(ctx().db).insert(
      { name: `desk-la-${dialect}`, describe: "", status: 1, creatorId: null },
      [],
      now,
    );
    await insert({ libraryId: "lib-a", roleId: role, userId: null, level: "write" });
    await insert({ libraryId: "*", roleId: role, userId: null, level: "read" });
    const direct = await createPrincipal(ctx().db, { username: "la-direct", roleId: role });
    await insert({ libraryId: "lib-a", roleId: null, userId: direct.id, level: "manage" });
    await insert({ libraryId: "lib-b", roleId: null, userId: direct.id, level: "write" });
    users.direct = { id: direct.id, admin: false, roleId: role };
    const roleOnly = await createPrincipal(ctx().db, { username: "la-role", roleId: role });
    users.roleOnly = { id: roleOnly.id, admin: false, roleId: role };
    const lone = await createPrincipal(ctx().db, { username: "la-lone" });
    await ctx().db.kysely.updateTable("users").set({ role_id: null }).where("id", "=", lone.id).execute();
    await insert({ libraryId: "lib-b", roleId: null, userId: lone.id, level: "read" });
    users.lone = { id: lone.id, admin: false, roleId: null };
    users.admin = { id: lone.id, admin: true, roleId: null };
  });

  it("gives each library the highest of the user's, their role's and the every-library grants, from one read", async () => {
    const levels = async (name: string) => Object.fromEntries(await access.levelsOn(users[name]!, libraries));
    expect(await levels("direct")).toEqual({
      product: "read",
      material: "read",
      "lib-a": "manage",
      "lib-b": "write",
      "lib-none": "read",
    });
    expect(await levels("roleOnly")).toEqual({
      product: "read",
      material: "read",
      "lib-a": "write",
      "lib-b": "read",
      "lib-none": "read",
    });
    expect(await levels("lone")).toEqual({
      product: null,
      material: null,
      "lib-a": null,
      "lib-b": "read",
      "lib-none": null,
    });
    expect(Object.values(await levels("admin"))).toEqual(libraries.map(() => "manage"));
    // The same answers as asking library by library.
    for (const name of Object.keys(users))
      for (const library of libraries)
        expect((await access.levelsOn(users[name]!, [library])).get(library)).toBe(
          await access.levelOn(users[name]!, library),
        );
  });
});
