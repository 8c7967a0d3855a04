import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDialect, useTestApp } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { ApiTokensRepository } from "../api-tokens/api-tokens.repository.js";
import { ApiTokensService } from "../api-tokens/api-tokens.service.js";
import { GrantsRepository } from "./grants.repository.js";
import type { LibraryLevel } from "./permissions.js";
import { RolesRepository } from "./roles.repository.js";

/**
 * Every seeded role × every endpoint group of the identity work × own/other
 * library. A refused cell answers 403 (404 where existence must not leak)
 * and carries no data. The expectations are written out here as data, not
 * derived from the code under test.
 */

const WHO = ["admin", "administrator", "editor", "contributor", "viewer"] as const;
type Who = (typeof WHO)[number];

/** `admin` holds the administrator role and users.admin; `administrator` holds the role alone. */
const ROLE_OF: Record<Who, string> = {
  admin: "administrator",
  administrator: "administrator",
  editor: "editor",
  contributor: "contributor",
  viewer: "viewer",
};

type Expectation = Record<Who, number>;
const BACK_AREA: Expectation = { admin: 200, administrator: 200, editor: 403, contributor: 403, viewer: 403 };
const EVERYONE: Expectation = { admin: 200, administrator: 200, editor: 200, contributor: 200, viewer: 200 };
const NOBODY_SEES_IT: Expectation = { admin: 404, administrator: 404, editor: 404, contributor: 404, viewer: 404 };

interface Fixtures {
  principals: Record<Who, TestPrincipal>;
  outsider: TestPrincipal;
  target: TestPrincipal;
  serial: () => number;
  newRole: () => Promise<string>;
  newGrant: () => Promise<string>;
  newToken: (userId: string) => Promise<string>;
}

interface Cell {
  group: string;
  name: string;
  expect: Expectation;
  request: (who: Who, fixtures: Fixtures) => Promise<InjectOptions> | InjectOptions;
}

const API = "/dams/api/v1";

const endpointCells: Cell[] = [
  {
    group: "current user",
    name: "GET /users/login/user",
    expect: EVERYONE,
    request: () => ({ method: "GET", url: `${API}/users/login/user` }),
  },
  {
    group: "menus",
    name: "GET /user-menus",
    expect: EVERYONE,
    request: () => ({ method: "GET", url: `${API}/user-menus` }),
  },
  {
    group: "menus",
    name: "GET /admin-menus",
    expect: EVERYONE,
    request: () => ({ method: "GET", url: `${API}/admin-menus` }),
  },

  {
    group: "users",
    name: "GET /users",
    expect: BACK_AREA,
    request: () => ({ method: "GET", url: `${API}/users?keyword=matrix` }),
  },
  {
    group: "users",
    name: "POST /users",
    expect: BACK_AREA,
    request: (who, f) => ({
      method: "POST",
      url: `${API}/users`,
      payload: { username: `made-by-${who}-${f.serial()}`, password: "a-long-password" },
    }),
  },
  {
    group: "users",
    name: "PUT /users/{id}",
    expect: BACK_AREA,
    request: (who, f) => ({
      method: "PUT",
      url: `${API}/users/${f.target.id}`,
      payload: { name: `renamed by ${who}` },
    }),
  },
  {
    group: "users",
    name: "POST /users/{id}/disable",
    expect: BACK_AREA,
    request: (_who, f) => ({ method: "POST", url: `${API}/users/${f.target.id}/disable` }),
  },
  {
    group: "users",
    name: "POST /users/{id}/enable",
    expect: BACK_AREA,
    request: (_who, f) => ({ method: "POST", url: `${API}/users/${f.target.id}/enable` }),
  },
  {
    group: "users",
    name: "POST /users/{id}/password",
    expect: BACK_AREA,
    request: (_who, f) => ({
      method: "POST",
      url: `${API}/users/${f.target.id}/password`,
      payload: { password: "a-new-password" },
    }),
  },

  { group: "roles", name: "GET /roles", expect: BACK_AREA, request: () => ({ method: "GET", url: `${API}/roles` }) },
  {
    group: "roles",
    name: "GET /roles/permissions",
    expect: BACK_AREA,
    request: () => ({ method: "GET", url: `${API}/roles/permissions` }),
  },
  {
    group: "roles",
    name: "POST /roles",
    expect: BACK_AREA,
    request: (who, f) => ({
      method: "POST",
      url: `${API}/roles`,
      payload: { name: `role by ${who} ${f.serial()}`, permissions: [{ permissionId: "search", actions: ["query"] }] },
    }),
  },
  {
    group: "roles",
    name: "PUT /roles/{id}",
    expect: BACK_AREA,
    request: async (who, f) => ({
      method: "PUT",
      url: `${API}/roles/${await f.newRole()}`,
      payload: { describe: who },
    }),
  },
  {
    group: "roles",
    name: "DELETE /roles/{id}",
    expect: BACK_AREA,
    request: async (_who, f) => ({ method: "DELETE", url: `${API}/roles/${await f.newRole()}` }),
  },

  {
    group: "grants",
    name: "GET /library-grants",
    expect: BACK_AREA,
    request: () => ({ method: "GET", url: `${API}/library-grants` }),
  },
  {
    group: "grants",
    name: "POST /library-grants",
    expect: BACK_AREA,
    request: (_who, f) => ({
      method: "POST",
      url: `${API}/library-grants`,
      payload: { libraryId: `lib-${f.serial()}`, roleId: "viewer", level: "read" },
    }),
  },
  {
    group: "grants",
    name: "DELETE /library-grants/{id}",
    expect: BACK_AREA,
    request: async (_who, f) => ({ method: "DELETE", url: `${API}/library-grants/${await f.newGrant()}` }),
  },

  {
    group: "api tokens",
    name: "GET /api-tokens",
    expect: EVERYONE,
    request: () => ({ method: "GET", url: `${API}/api-tokens` }),
  },
  {
    group: "api tokens",
    name: "POST /api-tokens",
    expect: EVERYONE,
    request: () => ({ method: "POST", url: `${API}/api-tokens`, payload: { name: "integration", expiresInDays: 30 } }),
  },
  {
    group: "api tokens",
    name: "DELETE /api-tokens/{own id}",
    expect: EVERYONE,
    request: async (who, f) => ({
      method: "DELETE",
      url: `${API}/api-tokens/${await f.newToken(f.principals[who].id)}`,
    }),
  },
  {
    group: "api tokens",
    name: "DELETE /api-tokens/{someone else's id}",
    expect: NOBODY_SEES_IT,
    request: async (_who, f) => ({ method: "DELETE", url: `${API}/api-tokens/${await f.newToken(f.outsider.id)}` }),
  },
];

/** Libraries: each principal's own (a user grant of manage), the outsider's own, and the seeded ones. */
const LIBRARIES = ["own", "other", "product", "material", "publish"] as const;
type LibraryCase = (typeof LIBRARIES)[number];

/** The level each principal holds, written out from the seed: administrator manage *, editor write *,
 * contributor write product+material, viewer read *; everyone manage on their own library. */
const HELD: Record<Who, Record<LibraryCase, LibraryLevel | null>> = {
  admin: { own: "manage", other: "manage", product: "manage", material: "manage", publish: "manage" },
  administrator: { own: "manage", other: "manage", product: "manage", material: "manage", publish: "manage" },
  editor: { own: "manage", other: "write", product: "write", material: "write", publish: "write" },
  contributor: { own: "manage", other: null, product: "write", material: "write", publish: null },
  viewer: { own: "manage", other: "read", product: "read", material: "read", publish: "read" },
};

const LEVEL_ROUTES: Record<LibraryLevel, { method: "GET" | "PUT" | "DELETE"; suffix: string }> = {
  read: { method: "GET", suffix: "read" },
  write: { method: "PUT", suffix: "write" },
  manage: { method: "DELETE", suffix: "manage" },
};

function expectedLibraryStatus(held: LibraryLevel | null, wanted: LibraryLevel): number {
  const order: LibraryLevel[] = ["read", "write", "manage"];
  if (held === null) return 404;
  return order.indexOf(held) >= order.indexOf(wanted) ? 200 : 403;
}

function libraryId(library: LibraryCase, who: Who): string {
  if (library === "own") return `personal-${who}`;
  if (library === "other") return "personal-outsider";
  return library;
}

const libraryCells: Cell[] = LIBRARIES.flatMap((library) =>
  (["read", "write", "manage"] as const).map((level) => ({
    group: "library",
    name: `${LEVEL_ROUTES[level].method} ${library} library (${level})`,
    expect: Object.fromEntries(
      WHO.map((who) => [who, expectedLibraryStatus(HELD[who][library], level)]),
    ) as Expectation,
    request: (who: Who) => ({
      method: LEVEL_ROUTES[level].method,
      url: `${API}/test/libraries/${libraryId(library, who)}/${LEVEL_ROUTES[level].suffix}`,
    }),
  })),
);

describeEachDialect("access matrix", (dialect) => {
  const ctx = useTestApp(dialect, {
    prepare(app) {
      // Libraries arrive in a later issue: these stand in for story routes that name a library.
      for (const level of ["read", "write", "manage"] as const) {
        const { method, suffix } = LEVEL_ROUTES[level];
        app.route({
          method,
          url: `${API}/test/libraries/:libraryId/${suffix}`,
          config: { access: "authenticated", library: { param: "libraryId", level } },
          handler: async (request) => ({
            code: 0,
            msg: "ok",
            data: { libraryId: (request.params as { libraryId: string }).libraryId, secret: "library content" },
          }),
        });
      }
    },
  });
  let fixtures: Fixtures;
  let cellsChecked = 0;

  beforeAll(async () => {
    const { db } = ctx();
    const principals = {} as Record<Who, TestPrincipal>;
    const grants = new GrantsRepository(db);
    const now = new Date().toISOString();
    for (const who of WHO) {
      principals[who] = await createPrincipal(db, {
        username: `matrix-${who}`,
        roleId: ROLE_OF[who],
        admin: who === "admin",
      });
      await grants.insert(
        { libraryId: `personal-${who}`, userId: principals[who].id, roleId: null, level: "manage" },
        now,
      );
    }
    const outsider = await createPrincipal(db, { username: "matrix-outsider", roleId: "viewer" });
    await grants.insert({ libraryId: "personal-outsider", userId: outsider.id, roleId: null, level: "manage" }, now);
    const target = await createPrincipal(db, { username: "matrix-target" });
    const roles = new RolesRepository(db);
    const tokens = new ApiTokensService(new ApiTokensRepository(db));
    let counter = 0;
    fixtures = {
      principals,
      outsider,
      target,
      serial: () => ++counter,
      newRole: () => roles.insert({ name: `fixture ${++counter}`, describe: "", status: 1, creatorId: null }, [], now),
      newGrant: () =>
        grants.insert({ libraryId: `fixture-${++counter}`, roleId: "viewer", userId: null, level: "read" }, now),
      newToken: async (userId) => (await tokens.create(userId, { name: `fixture ${++counter}` })).token.id,
    };
  });

  afterAll(() => {
    console.log(`access matrix [${dialect}]: ${cellsChecked} cells`);
  });

  it("answers every cell as the matrix says, and refusals carry no data", async () => {
    const failures: string[] = [];
    for (const cell of [...endpointCells, ...libraryCells]) {
      for (const who of WHO) {
        const request = await cell.request(who, fixtures);
        const response = await ctx().app.inject({ ...request, headers: fixtures.principals[who].headers });
        const wanted = cell.expect[who];
        cellsChecked++;
        const status = response.statusCode;
        const ok = wanted === 200 ? status >= 200 && status < 300 : status === wanted;
        if (!ok) failures.push(`${who} × ${cell.name}: expected ${wanted}, got ${status} ${response.body}`);
        if (wanted !== 200) {
          const body = response.json();
          if (Object.keys(body).sort().join() !== "code,error,msg" || response.body.includes("library content")) {
            failures.push(`${who} × ${cell.name}: refusal carries more than the error envelope: ${response.body}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(cellsChecked).toBe((endpointCells.length + libraryCells.length) * WHO.length);
  });

  it("covers every endpoint group and every library case", () => {
    const groups = new Set([...endpointCells, ...libraryCells].map((cell) => cell.group));
    expect([...groups].sort()).toEqual(["api tokens", "current user", "grants", "library", "menus", "roles", "users"]);
    expect(libraryCells).toHaveLength(LIBRARIES.length * 3);
  });
});
