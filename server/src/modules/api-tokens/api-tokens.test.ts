import { beforeAll, expect, it } from "vitest";
import { API_PREFIX } from "../../http/error-handler.js";
import { describeEachDialect, useTestApp } from "../../test/dialects.js";
import { bearer, createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { hashToken } from "./api-tokens.service.js";

const TOKENS = `${API_PREFIX}/api-tokens`;
const ME = `${API_PREFIX}/users/login/user`;

describeEachDialect("API tokens", (dialect) => {
  const ctx = useTestApp(dialect);
  let owner: TestPrincipal;

  beforeAll(async () => {
    owner = await createPrincipal(ctx().db, { username: "token-owner", roleId: "editor" });
  });

  async function create(payload: object) {
    const response = await ctx().app.inject({ method: "POST", url: TOKENS, headers: owner.headers, payload });
    expect(response.statusCode).toBe(200);
    return response.json().data as { token: { id: string; prefix: string; expiresAt: string | null }; secret: string };
  }

  it("creates a token whose secret works and is stored only as its sha256", async () => {
    const { token, secret } = await create({ name: "photo desk import", expiresInDays: 7 });
    expect(secret).toMatch(/^dams_[A-Za-z0-9_-]{43}$/);
    expect(secret.startsWith(token.prefix)).toBe(true);
    expect(Date.parse(token.expiresAt!) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);

    const me = await ctx().app.inject({ method: "GET", url: ME, headers: bearer(secret) });
    expect(me.statusCode).toBe(200);
    expect(me.json().data.username).toBe("token-owner");

    const row = await ctx()
      .db.kysely.selectFrom("api_tokens")
      .selectAll()
      .where("id", "=", token.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(hashToken(secret));
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(row.last_used_at).not.toBeNull();
  });

  it("lists the caller's tokens without secrets or hashes", async () => {
    const { secret } = await create({ name: "listed" });
    const response = await ctx().app.inject({ method: "GET", url: TOKENS, headers: owner.headers });
    const tokens = response.json().data as Record<string, unknown>[];
    expect(tokens.map((token) => token.name)).toEqual(expect.arrayContaining(["listed", "photo desk import", "test"]));
    for (const token of tokens) {
      expect(Object.keys(token).sort()).toEqual(
        ["createdAt", "expiresAt", "id", "lastUsedAt", "name", "prefix", "revokedAt"].sort(),
      );
    }
    expect(response.body).not.toContain(secret);
    expect(response.body).not.toContain(hashToken(secret));

    const stranger = await createPrincipal(ctx().db, { username: "token-stranger", roleId: "viewer" });
    const theirs = await ctx().app.inject({ method: "GET", url: TOKENS, headers: stranger.headers });
    expect((theirs.json().data as { name: string }[]).map((token) => token.name)).toEqual(["test"]);
  });

  it("refuses a revoked token with 401", async () => {
    const { token, secret } = await create({ name: "to revoke" });
    expect((await ctx().app.inject({ method: "GET", url: ME, headers: bearer(secret) })).statusCode).toBe(200);
    const revoked = await ctx().app.inject({ method: "DELETE", url: `${TOKENS}/${token.id}`, headers: owner.headers });
    expect(revoked.statusCode).toBe(200);
    const refused = await ctx().app.inject({ method: "GET", url: ME, headers: bearer(secret) });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ code: 401, error: "token_revoked" });
    const listed = await ctx().app.inject({ method: "GET", url: TOKENS, headers: owner.headers });
    expect(
      (listed.json().data as { id: string; revokedAt: string | null }[]).find((t) => t.id === token.id)?.revokedAt,
    ).not.toBeNull();
  });

  it("refuses an expired token with 401", async () => {
    const { token, secret } = await create({ name: "short-lived", expiresInDays: 1 });
    await ctx()
      .db.kysely.updateTable("api_tokens")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", token.id)
      .execute();
    const refused = await ctx().app.inject({ method: "GET", url: ME, headers: bearer(secret) });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ code: 401, error: "token_expired" });
  });

  it("does not let one user revoke another's token, nor say whether it exists", async () => {
    const { token } = await create({ name: "not yours" });
    const stranger = await createPrincipal(ctx().db, { username: "token-thief", roleId: "editor" });
    const attempt = await ctx().app.inject({
      method: "DELETE",
      url: `${TOKENS}/${token.id}`,
      headers: stranger.headers,
    });
    expect(attempt.statusCode).toBe(404);
    const missing = await ctx().app.inject({
      method: "DELETE",
      url: `${TOKENS}/00000000-0000-4000-8000-000000000000`,
      headers: stranger.headers,
    });
    expect(missing.statusCode).toBe(404);
    expect(attempt.json().msg.replace(token.id, "<id>")).toBe(
      missing.json().msg.replace("00000000-0000-4000-8000-000000000000", "<id>"),
    );
  });

  it("names the field of a bad request", async () => {
    const response = await ctx().app.inject({
      method: "POST",
      url: TOKENS,
      headers: owner.headers,
      payload: { name: "", expiresInDays: 0 },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().msg).toContain("body.name");
    expect(response.json().msg).toContain("body.expiresInDays");
  });
});
