import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildApp } from "../../app.js";
import { type Db, openDatabase } from "../../db/database.js";
import { notificationsReady } from "../../db/notifications.js";
import { API_PREFIX } from "../../http/error-handler.js";
import { describeEachDialect, useTestApp } from "../../test/dialects.js";
import { eventually } from "../../test/eventually.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";

const ME = `${API_PREFIX}/users/login/user`;
const PRODUCT = `${API_PREFIX}/libraries/product`;

/**
 * The API keeps a caller's sign-in (token, account, permissions) and library
 * levels for DAMS_AUTH_CACHE_SECONDS. Here that lifetime is a minute, far
 * longer than each case, so a refusal right after a change can only come
 * from the change dropping the cache — on this node and on another node of
 * the same database (PostgreSQL; SQLite has one node).
 */
describeEachDialect("cached sign-ins", (dialect) => {
  const ctx = useTestApp(dialect, { env: { DAMS_AUTH_CACHE_SECONDS: "60" } });
  let other: { app: FastifyInstance; db: Db } | undefined;
  let admin: TestPrincipal;

  beforeAll(async () => {
    admin = await createPrincipal(ctx().db, { username: "cache-admin", admin: true });
    if (dialect === "postgres") {
      const db = openDatabase(ctx().config.database);
      const app = await buildApp({ config: ctx().config, db, logger: false });
      await app.ready();
      other = { app, db };
      // The first request builds the caches' LISTEN connections; wait until they are up on both nodes.
      await notificationsReady(ctx().db.notifications);
      await notificationsReady(db.notifications);
    }
  });
  afterAll(async () => {
    await other?.app.close();
    await other?.db.close();
  });

  /** Node A changes things; both nodes serve the caller (the same app on SQLite). */
  const nodes = () => [ctx().app, other?.app ?? ctx().app];

  async function status(app: FastifyInstance, who: TestPrincipal, url = ME): Promise<number> {
    return (await app.inject({ method: "GET", url, headers: who.headers })).statusCode;
  }

  async function asAdmin(method: "POST" | "PUT" | "DELETE", url: string, payload?: object) {
    const response = await ctx().app.inject({ method, url: `${API_PREFIX}${url}`, headers: admin.headers, payload });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  }

  /** Every node answers `expected`, and keeps answering it after the database changed behind its back. */
  async function cachedOnEveryNode(who: TestPrincipal, url: string, expected: number): Promise<void> {
    for (const app of nodes()) expect(await status(app, who, url)).toBe(expected);
  }

  it("keeps a sign-in: a change written behind the API's back is not seen within the lifetime", async () => {
    const reporter = await createPrincipal(ctx().db, { username: "cache-stale", roleId: "editor" });
    await cachedOnEveryNode(reporter, ME, 200);
    await ctx().db.kysely.updateTable("users").set({ status: 0 }).where("id", "=", reporter.id).execute();
    // Proof that the cache answers (what the invalidations below must overcome), not a wanted behaviour.
    await cachedOnEveryNode(reporter, ME, 200);
  });

  it("refuses a disabled user at once, on every node", async () => {
    const reporter = await createPrincipal(ctx().db, { username: "cache-disabled", roleId: "editor" });
    await cachedOnEveryNode(reporter, ME, 200);
    await asAdmin("POST", `/users/${reporter.id}/disable`);
    await expectOnEveryNode(reporter, ME, 401);
  });

  it("refuses a revoked API token at once, on every node, and keeps the owner's other token", async () => {
    const reporter = await createPrincipal(ctx().db, { username: "cache-revoked", roleId: "editor" });
    const second = await ctx().app.inject({
      method: "POST",
      url: `${API_PREFIX}/api-tokens`,
      headers: reporter.headers,
      payload: { name: "second" },
    });
    expect(second.statusCode, second.body).toBe(200);
    const { token, secret } = second.json().data as { token: { id: string }; secret: string };
    const secondPrincipal = { ...reporter, token: secret, headers: { authorization: `Bearer ${secret}` } };
    await cachedOnEveryNode(secondPrincipal, ME, 200);
    await cachedOnEveryNode(reporter, ME, 200);
    const revoked = await ctx().app.inject({
      method: "DELETE",
      url: `${API_PREFIX}/api-tokens/${token.id}`,
      headers: reporter.headers,
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    await expectOnEveryNode(secondPrincipal, ME, 401);
    await cachedOnEveryNode(reporter, ME, 200);
  });

  it("refuses a permission at once when the user's role changes, or the role loses it", async () => {
    const users = `${API_PREFIX}/users?size=1`;
    const byRole = await createPrincipal(ctx().db, { username: "cache-role-1", roleId: "administrator" });
    await cachedOnEveryNode(byRole, users, 200);
    await asAdmin("PUT", `/users/${byRole.id}`, { roleId: "viewer" });
    await expectOnEveryNode(byRole, users, 403);

    const role = await asAdmin("POST", "/roles", {
      name: "cache desk",
      permissions: [{ permissionId: "manage.userrole.user", actions: ["query"] }],
    });
    const byPermission = await createPrincipal(ctx().db, { username: "cache-role-2", roleId: role.id });
    await cachedOnEveryNode(byPermission, users, 200);
    await asAdmin("PUT", `/roles/${role.id}`, { permissions: [] });
    await expectOnEveryNode(byPermission, users, 403);
  });

  it("refuses a library at once when its grant is deleted", async () => {
    const role = await asAdmin("POST", "/roles", { name: "cache library desk" });
    const grant = await asAdmin("POST", "/library-grants", { libraryId: "product", roleId: role.id, level: "read" });
    const reader = await createPrincipal(ctx().db, { username: "cache-grant", roleId: role.id });
    await cachedOnEveryNode(reader, PRODUCT, 200);
    await asAdmin("DELETE", `/library-grants/${grant.id}`);
    await expectOnEveryNode(reader, PRODUCT, 404);
  });

  /** The libraries `who` reads, by id with their name, level and archive, as a node answers GET /libraries. */
  async function readable(app: FastifyInstance, who: TestPrincipal): Promise<string[]> {
    const response = await app.inject({ method: "GET", url: `${API_PREFIX}/libraries`, headers: who.headers });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json().data as { id: string; name: string; level: string; archivedAt: string | null }[]).map(
      (library) => `${library.id} ${library.level} ${library.name}${library.archivedAt ? " archived" : ""}`,
    );
  }

  /** Every node answers `expected` at once (this one) or once the database's notice reached it (the others). */
  async function readableOnEveryNode(who: TestPrincipal, expected: string[]): Promise<void> {
    expect(await readable(ctx().app, who)).toEqual(expected);
    if (!other) return;
    await eventually(
      () => readable(other!.app, who),
      (list) => JSON.stringify(list) === JSON.stringify(expected),
      { what: "the other node's libraries" },
    );
    expect(await readable(other.app, who)).toEqual(expected);
  }

  it("keeps the libraries a caller reads: a grant written behind the API's back is not seen within the lifetime", async () => {
    const role = await asAdmin("POST", "/roles", { name: "cache readable stale" });
    const reader = await createPrincipal(ctx().db, { username: "cache-readable-stale", roleId: role.id });
    for (const app of nodes()) expect(await readable(app, reader)).toEqual([]);
    await ctx()
      .db.kysely.insertInto("library_grants")
      .values({
        id: randomUUID(),
        library_id: "product",
        role_id: role.id,
        user_id: null,
        level: "read",
        created_at: new Date().toISOString(),
      })
      .execute();
    // Proof that the cache answers (what the invalidations below must overcome), not a wanted behaviour.
    for (const app of nodes()) expect(await readable(app, reader)).toEqual([]);
  });

  it("shows a search's libraries changed at once, on every node: grants, the user's role, the libraries", async () => {
    const first = await asAdmin("POST", "/roles", { name: "cache readable one" });
    const second = await asAdmin("POST", "/roles", { name: "cache readable two" });
    const reader = await createPrincipal(ctx().db, { username: "cache-readable", roleId: first.id });
    const names = new Map(
      (await readable(ctx().app, admin)).map((entry) => [entry.split(" ")[0], entry.split(" ")[2]]),
    );
    const entry = (id: string, level: string) => `${id} ${level} ${names.get(id)}`;
    await readableOnEveryNode(reader, []);

    const grant = await asAdmin("POST", "/library-grants", { libraryId: "material", roleId: first.id, level: "read" });
    await readableOnEveryNode(reader, [entry("material", "read")]);
    await asAdmin("POST", "/library-grants", { libraryId: "product", roleId: second.id, level: "write" });
    await asAdmin("PUT", `/users/${reader.id}`, { roleId: second.id });
    await readableOnEveryNode(reader, [entry("product", "write")]);
    await asAdmin("PUT", `/users/${reader.id}`, { roleId: first.id });
    await asAdmin("DELETE", `/library-grants/${grant.id}`);
    await readableOnEveryNode(reader, []);

    // A grant on every library: libraries made, renamed, archived and deleted are seen at once.
    await asAdmin("POST", "/library-grants", { libraryId: "*", userId: reader.id, level: "read" });
    const before = await readable(ctx().app, reader);
    expect(before).toContain(entry("product", "read"));
    const id = `cache-lib-${dialect}`;
    await asAdmin("POST", "/library-settings", { id, name: "kept list", sort: 100_000 });
    await readableOnEveryNode(reader, [...before, `${id} read kept list`]);
    await asAdmin("PUT", `/library-settings/${id}`, { name: "renamed list", sort: 100_000 });
    await readableOnEveryNode(reader, [...before, `${id} read renamed list`]);
    await asAdmin("POST", `/library-settings/${id}/archive`);
    await readableOnEveryNode(reader, [...before, `${id} read renamed list archived`]);
    await asAdmin("DELETE", `/library-settings/${id}`);
    await readableOnEveryNode(reader, before);
  });

  /**
   * This node refuses at once (the writer dropped its entries before
   * answering); another node once the database's notice reached it, which
   * the test waits for with a generous bound — the lifetime (a minute) is
   * what it must beat.
   */
  async function expectOnEveryNode(who: TestPrincipal, url: string, expected: number): Promise<void> {
    expect(await status(ctx().app, who, url)).toBe(expected);
    if (!other) return;
    await eventually(
      () => status(other!.app, who, url),
      (answer) => answer === expected,
      { what: `${url} answering ${expected} on the other node` },
    );
  }
});
