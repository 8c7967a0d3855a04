import { expect, it } from "vitest";
import { describeEachDialect, useTestDb } from "../../test/dialects.js";
import { OidcRepository } from "./oidc.repository.js";
import { OidcAdapter } from "./oidc-adapter.js";

describeEachDialect("oidc adapter", (dialect) => {
  const db = useTestDb(dialect);
  let now = new Date("2030-01-01T00:00:00.000Z");
  const clock = () => now;
  const adapter = (type: string) => new OidcAdapter(type, new OidcRepository(db()), clock, "newsroom");

  it("stores and finds payloads by id, uid and user code, per model", async () => {
    await adapter("Session").upsert(
      "s1",
      { uid: "u1", accountId: "a", authorizations: { newsroom: { grantId: "g0" } } },
      60,
    );
    await adapter("DeviceCode").upsert("d1", { userCode: "ABCD-EFGH", grantId: "g0" }, 60);
    expect(await adapter("Session").find("s1")).toMatchObject({ accountId: "a" });
    expect(await adapter("Session").findByUid("u1")).toMatchObject({ accountId: "a" });
    expect(await adapter("DeviceCode").findByUserCode("ABCD-EFGH")).toMatchObject({ grantId: "g0" });
    expect(await adapter("AccessToken").find("s1")).toBeUndefined();
    await adapter("Session").upsert("s1", { uid: "u1", accountId: "b" }, 60);
    expect(await adapter("Session").find("s1")).toMatchObject({ accountId: "b" });
  });

  it("consumes atomically: of ten parallel redemptions exactly one wins, and the grant is revoked", async () => {
    await adapter("Grant").upsert("g1", { accountId: "a" }, 600);
    await adapter("AuthorizationCode").upsert("c1", { grantId: "g1" }, 60);
    await adapter("RefreshToken").upsert("r1", { grantId: "g1" }, 600);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => adapter("AuthorizationCode").consume("c1")),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    expect(results.filter((result) => result.status === "rejected")).toHaveLength(9);
    // The losers are replays: the grant and what was issued under it are gone.
    expect(await adapter("Grant").find("g1")).toBeUndefined();
    expect(await adapter("RefreshToken").find("r1")).toBeUndefined();
  });

  it("reports a consumed payload with the time it was consumed", async () => {
    await adapter("RefreshToken").upsert("r2", { grantId: "g2" }, 600);
    await adapter("RefreshToken").consume("r2");
    expect(await adapter("RefreshToken").find("r2")).toMatchObject({ consumed: Math.floor(now.getTime() / 1000) });
    await expect(adapter("RefreshToken").consume("r2")).rejects.toMatchObject({
      error: "invalid_grant",
      statusCode: 400,
    });
  });

  it("forgets expired payloads on find and in the sweep", async () => {
    await adapter("Interaction").upsert("i1", { uid: "x" }, 30);
    await adapter("Interaction").upsert("i2", { uid: "y" }, 30);
    await adapter("Interaction").upsert("i3", { uid: "z" }, 300);
    now = new Date(now.getTime() + 31_000);
    expect(await adapter("Interaction").find("i1")).toBeUndefined();
    expect(await new OidcRepository(db()).sweepExpired(now.toISOString())).toBe(1); // i2; i1 went on find
    expect(await adapter("Interaction").find("i3")).toMatchObject({ uid: "z" });
  });

  it("revokes by grant only within its own model, and destroys", async () => {
    await adapter("AccessToken").upsert("t1", { grantId: "g3" }, 60);
    await adapter("RefreshToken").upsert("t1", { grantId: "g3" }, 60);
    await adapter("AccessToken").revokeByGrantId("g3");
    expect(await adapter("AccessToken").find("t1")).toBeUndefined();
    expect(await adapter("RefreshToken").find("t1")).toBeDefined();
    await adapter("RefreshToken").destroy("t1");
    expect(await adapter("RefreshToken").find("t1")).toBeUndefined();
  });
});
