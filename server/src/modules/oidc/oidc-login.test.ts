import fs from "node:fs";
import { beforeAll, expect, it } from "vitest";
import { auditSince, lastAuditId } from "../../test/audit.js";
import { describeEachDialect } from "../../test/dialects.js";
import { authorize, type CookieJar, interactionUid, postJson, useSignInApp } from "../../test/oidc-flow.js";
import { UsersRepository } from "../users/users.repository.js";
import { UsersService } from "../users/users.service.js";
import { AuthThrottle, THROTTLE_RULES } from "./auth-throttle.js";
import { parseOidcKeys } from "./oidc-keys.js";

const photographer = { username: "photo.liu", password: "photographer pass" };

describeEachDialect("oidc login page endpoints", (dialect) => {
  const { testApp, client } = useSignInApp(dialect);

  beforeAll(async () => {
    await new UsersService(new UsersRepository(testApp().db)).createUser(photographer);
  });

  async function pending(): Promise<{ jar: CookieJar; login: string }> {
    const authorization = await authorize(client.spa);
    const uid = interactionUid(authorization);
    return { jar: authorization.jar, login: `${client.base}/uuas/interaction/${uid}/login` };
  }

  it("answers unknown user and wrong password identically", async () => {
    const { jar, login } = await pending();
    const unknown = await postJson(jar, login, { username: "nobody.here", password: "whatever pass" });
    const wrong = await postJson(jar, login, { username: photographer.username, password: "not the password" });
    expect(unknown.status).toBe(400);
    expect(wrong.status).toBe(unknown.status);
    expect(await wrong.json()).toEqual(await unknown.json());
  });

  it("keeps the signing and cookie keys in the database, one set for every node, and writes no key file", async () => {
    const stored = await testApp()
      .db.kysely.selectFrom("shared_secrets")
      .selectAll()
      .where("name", "=", "oidc.keys")
      .executeTakeFirstOrThrow();
    expect(stored.source).toBe("generated");
    const keys = parseOidcKeys(stored.value!);
    expect(keys.signing[0]).toMatchObject({ kty: "RSA", alg: "RS256", use: "sig" });
    expect(keys.cookieKeys).toHaveLength(1);
    expect(fs.existsSync(testApp().config.oidc.legacyKeysFile)).toBe(false);
  });

  it("aborting sends the client access_denied", async () => {
    const authorization = await authorize(client.spa);
    const uid = interactionUid(authorization);
    const abort = await postJson(authorization.jar, `${client.base}/uuas/interaction/${uid}/abort`, {});
    expect(abort.status).toBe(200);
    const { data } = (await abort.json()) as { data: { redirectTo: string } };
    const resumed = await authorization.jar.fetch(data.redirectTo);
    expect(new URL(resumed.headers.get("location")!).searchParams.get("error")).toBe("access_denied");
  });

  it("registers a user with clear validation messages, and refuses a duplicate", async () => {
    const jar = (await pending()).jar;
    const bad = await postJson(jar, `${client.base}/uuas/register`, { username: "x", name: "", password: "short" });
    expect(bad.status).toBe(400);
    const message = ((await bad.json()) as { msg: string }).msg;
    expect(message).toContain("username must be 2-64");
    expect(message).toContain("name is required");
    expect(message).toContain("password must be at least 8");
    const created = await postJson(jar, `${client.base}/uuas/register`, {
      username: "intern.sun",
      name: "孙实习",
      password: "intern password",
    });
    expect(created.status).toBe(201);
    expect(((await created.json()) as { data: unknown }).data).toMatchObject({
      username: "intern.sun",
      name: "孙实习",
    });
    const again = await postJson(jar, `${client.base}/uuas/register`, {
      username: "intern.sun",
      name: "again",
      password: "intern password",
    });
    expect(again.status).toBe(409);
  });

  it("throttles one account after 5 failures, even with the right password", async () => {
    const { jar, login } = await pending();
    // One failure for this account is left from the first test.
    for (let attempt = 0; attempt < THROTTLE_RULES.loginAccount.limit - 2; attempt++) {
      expect((await postJson(jar, login, { username: photographer.username, password: "wrong" })).status).toBe(400);
    }
    const right = await postJson(jar, login, { ...photographer, username: photographer.username });
    expect(right.status).toBe(200);
    // A success resets the account's count; five more failures lock it.
    const next = await pending();
    for (let attempt = 0; attempt < THROTTLE_RULES.loginAccount.limit; attempt++) {
      expect(
        (await postJson(next.jar, next.login, { username: photographer.username, password: "wrong" })).status,
      ).toBe(400);
    }
    const locked = await postJson(next.jar, next.login, photographer);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("throttles one address after 20 failures across accounts, and registration after 10", async () => {
    const { jar, login } = await pending();
    // Failures from this address so far: 2 in the first test, 3 + 5 in the one above.
    let failures = 10;
    let status = 0;
    while (failures < THROTTLE_RULES.loginAddress.limit + 1) {
      status = (await postJson(jar, login, { username: `someone.${failures}`, password: "wrong" })).status;
      if (status === 429) break;
      failures++;
    }
    expect(status).toBe(429);
    expect(failures).toBe(THROTTLE_RULES.loginAddress.limit);

    let registrations = 2; // from the registration test
    let answer: Response | undefined;
    while (registrations <= THROTTLE_RULES.registerAddress.limit) {
      answer = await postJson(jar, `${client.base}/uuas/register`, {
        username: `bulk.${registrations}`,
        name: "bulk",
        password: "bulk password",
      });
      if (answer.status === 429) break;
      registrations++;
    }
    expect(answer?.status).toBe(429);
    expect(registrations).toBe(THROTTLE_RULES.registerAddress.limit);
    expect(answer?.headers.get("retry-after")).toBeTruthy();
  });

  it("records every sign-in in the operation log: success, failure, with address and user agent", async () => {
    // The tests above used up this address's failures.
    const throttle = new AuthThrottle(testApp().db);
    for (const address of ["127.0.0.1", "::1", "::ffff:127.0.0.1"]) await throttle.reset(`login:address:${address}`);
    await throttle.reset(`login:account:${photographer.username}`);
    const since = await lastAuditId(testApp().db);
    const { jar, login } = await pending();
    const browser = { "user-agent": "Mozilla/5.0 (sign-in audit)" };
    const wrong = await postJson(jar, login, { username: photographer.username, password: "not it at all" }, browser);
    expect(wrong.status).toBe(400);
    const right = await postJson(jar, login, photographer, browser);
    expect(right.status).toBe(200);
    const records = await auditSince(testApp().db, since);
    expect(records.map((record) => [record.action, record.result, record.targetLabel, record.userAgent])).toEqual([
      ["signin.failure", "failed", photographer.username, browser["user-agent"]],
      ["signin.success", "ok", photographer.username, browser["user-agent"]],
    ]);
    expect(records[0]!.details).toEqual({ reason: "invalid_credentials" });
    expect(records[0]!.actorId).toBeNull();
    expect(records[1]!.actorName).toBe(photographer.username);
    expect(records.every((record) => record.ip !== null)).toBe(true);
  });
});
