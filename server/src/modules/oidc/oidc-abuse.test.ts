import { exportJWK, generateKeyPair, importJWK, type JWTPayload, SignJWT } from "jose";
import * as oauth from "oauth4webapi";
import { beforeAll, describe, expect, it } from "vitest";
import { describeEachDialect } from "../../test/dialects.js";
import {
  authorize,
  exchangeCode,
  insecure,
  interactionUid,
  signInToCallback,
  tokenRequest,
  useSignInApp,
} from "../../test/oidc-flow.js";
import { UsersRepository } from "../users/users.repository.js";
import { UsersService } from "../users/users.service.js";
import { parseOidcKeys } from "./oidc-keys.js";

/**
 * Token abuse, each refused (21 cases):
 *  1 no PKCE                          2 plain PKCE
 *  3 wrong code_verifier              4 code reused (first tokens revoked)
 *  5 refresh token reused after rotation (grant revoked, current token dies too)
 *  6 parallel double redemption of one code (exactly one wins)
 *  7 parallel double refresh (exactly one wins)
 *  8-11 redirect URI: trailing slash, other host, other path, extra query
 * 12 code exchanged with another redirect_uri
 * 13 wrong audience                  14 expired token
 * 15 token signed by another key     16 alg "none"
 * 17 wrong issuer                    18 ID token used as access token
 * 19 token in the query string       20 access token after logout
 * 21 unknown client_id
 */
const editor = { username: "editor.zhao", password: "editor password 1" };

describeEachDialect("oidc token abuse", (dialect) => {
  const { testApp, client } = useSignInApp(dialect);
  let userId: string;
  let signingKey: CryptoKey;
  let kid: string;

  beforeAll(async () => {
    userId = (await new UsersService(new UsersRepository(testApp().db)).createUser(editor)).id;
    // The keys the app generated for its database (modules/secrets).
    const stored = await testApp()
      .db.kysely.selectFrom("shared_secrets")
      .select("value")
      .where("name", "=", "oidc.keys")
      .executeTakeFirstOrThrow();
    const keys = parseOidcKeys(stored.value!);
    kid = keys.signing[0]!.kid!;
    signingKey = (await importJWK(keys.signing[0]!, "RS256")) as CryptoKey;
  });

  const me = (token: string) =>
    fetch(`${client.base}/dams/api/v1/users/login/user`, { headers: { authorization: `Bearer ${token}` } });

  async function tokens() {
    const authorization = await signInToCallback(client.spa, client.base, editor);
    const response = await exchangeCode(client.spa, authorization);
    return oauth.processAuthorizationCodeResponse(client.spa.as, client.spa.client, response, {
      expectedNonce: authorization.nonce,
      requireIdToken: true,
    });
  }

  const refresh = (refreshToken: string) =>
    tokenRequest(client.spa, { grant_type: "refresh_token", refresh_token: refreshToken, client_id: "newsroom" });

  function authorizeRefused(response: Response) {
    const location = response.headers.get("location");
    if (location) {
      // Refused back to the (valid) redirect URI with an error, never to the login page.
      const url = new URL(location, client.base);
      expect(url.searchParams.get("error")).toBeTruthy();
      expect(url.pathname).not.toBe("/uuas/interaction");
      expect(url.searchParams.get("uid")).toBeNull();
    } else {
      expect(response.status).toBe(400);
    }
  }

  async function forge(claims: JWTPayload, options: { key?: CryptoKey; kid?: string; alg?: string } = {}) {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({
      scope: "sso",
      client_id: "newsroom",
      iss: `${client.base}/uuas`,
      aud: `${client.base}/dams`,
      sub: userId,
      iat: now,
      exp: now + 300,
      ...claims,
    })
      .setProtectedHeader({ alg: options.alg ?? "RS256", typ: "at+jwt", kid: options.kid ?? kid })
      .sign(options.key ?? signingKey);
  }

  it("a valid session works, as a control for the refusals below", async () => {
    const issued = await tokens();
    expect((await me(issued.access_token)).status).toBe(200);
  });

  it("1 refuses an authorization request without PKCE", async () => {
    authorizeRefused(
      (await authorize(client.spa, { code_challenge: undefined, code_challenge_method: undefined })).response,
    );
  });

  it("2 refuses plain PKCE", async () => {
    const { response } = await authorize(client.spa, {
      code_challenge: "a".repeat(43),
      code_challenge_method: "plain",
    });
    authorizeRefused(response);
  });

  it("3 refuses a wrong code_verifier", async () => {
    const authorization = await signInToCallback(client.spa, client.base, editor);
    const response = await exchangeCode(client.spa, authorization, oauth.generateRandomCodeVerifier());
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe("invalid_grant");
  });

  it("4 refuses a reused code and revokes the tokens of its first redemption", async () => {
    const authorization = await signInToCallback(client.spa, client.base, editor);
    const first = await oauth.processAuthorizationCodeResponse(
      client.spa.as,
      client.spa.client,
      await exchangeCode(client.spa, authorization),
      { expectedNonce: authorization.nonce, requireIdToken: true },
    );
    expect((await me(first.access_token)).status).toBe(200);
    const second = await exchangeCode(client.spa, authorization);
    expect(second.status).toBe(400);
    expect((await me(first.access_token)).status).toBe(401);
    expect((await refresh(first.refresh_token!)).status).toBe(400);
  });

  it("5 refuses a refresh token reused after rotation and revokes the grant", async () => {
    const issued = await tokens();
    const rotated = await refresh(issued.refresh_token!);
    expect(rotated.status).toBe(200);
    const current = (await rotated.json()) as { access_token: string; refresh_token: string };
    expect(current.refresh_token).not.toBe(issued.refresh_token);
    expect((await refresh(issued.refresh_token!)).status).toBe(400);
    expect((await refresh(current.refresh_token)).status).toBe(400);
    expect((await me(current.access_token)).status).toBe(401);
  });

  it("6 lets exactly one of two parallel redemptions of one code win", async () => {
    const authorization = await signInToCallback(client.spa, client.base, editor);
    const responses = await Promise.all([
      exchangeCode(client.spa, authorization),
      exchangeCode(client.spa, authorization),
    ]);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 400]);
  });

  it("7 lets exactly one of two parallel refreshes with one token win", async () => {
    const issued = await tokens();
    const responses = await Promise.all([refresh(issued.refresh_token!), refresh(issued.refresh_token!)]);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 400]);
  });

  describe("redirect URIs must match exactly", () => {
    const variants = {
      "8 trailing slash": (uri: string) => `${uri}/`,
      "9 other host": (uri: string) => uri.replace("127.0.0.1", "evil.example"),
      "10 other path": (uri: string) => uri.replace("/user/login", "/user/logout"),
      "11 extra query": (uri: string) => `${uri}?next=/x`,
    };
    for (const [name, variant] of Object.entries(variants)) {
      it(`${name} is refused without redirecting there`, async () => {
        const { response } = await authorize(client.spa, { redirect_uri: variant(client.spa.redirectUri) });
        expect(response.status).toBe(400);
        expect(response.headers.get("location")).toBeNull();
      });
    }
  });

  it("12 refuses a code exchanged with another redirect_uri", async () => {
    const authorization = await signInToCallback(client.spa, client.base, editor);
    const response = await tokenRequest(client.spa, {
      grant_type: "authorization_code",
      code: authorization.callback.searchParams.get("code")!,
      code_verifier: authorization.verifier,
      redirect_uri: `${client.spa.redirectUri}/`,
      client_id: "newsroom",
    });
    expect(response.status).toBe(400);
  });

  it("13-17 refuses forged access tokens: wrong audience, expired, another key, alg none, wrong issuer", async () => {
    const issued = await tokens();
    const grantId = (
      JSON.parse(Buffer.from(issued.access_token.split(".")[1]!, "base64url").toString()) as {
        grant_id: string;
      }
    ).grant_id;
    // Control: a token we sign the same way with the right claims is accepted.
    expect((await me(await forge({ grant_id: grantId }))).status).toBe(200);

    expect((await me(await forge({ grant_id: grantId, aud: `${client.base}/other` }))).status).toBe(401);
    const past = Math.floor(Date.now() / 1000) - 3600;
    expect((await me(await forge({ grant_id: grantId, iat: past - 600, exp: past }))).status).toBe(401);
    const { privateKey } = await generateKeyPair("RS256", { extractable: true });
    expect((await me(await forge({ grant_id: grantId }, { key: privateKey, kid: "another" }))).status).toBe(401);
    expect((await me(await forge({ grant_id: grantId }, { key: privateKey }))).status).toBe(401);
    const header = Buffer.from(JSON.stringify({ alg: "none", typ: "at+jwt" })).toString("base64url");
    const body = Buffer.from(
      JSON.stringify({
        sub: userId,
        iss: `${client.base}/uuas`,
        aud: `${client.base}/dams`,
        exp: past + 7200,
        iat: past,
        grant_id: grantId,
      }),
    ).toString("base64url");
    expect((await me(`${header}.${body}.`)).status).toBe(401);
    expect((await me(`${header}.${body}.c2ln`)).status).toBe(401);
    expect((await me(await forge({ grant_id: grantId, iss: "http://127.0.0.1:1/uuas" }))).status).toBe(401);
    expect(await exportJWK(privateKey)).toBeTruthy();
  });

  it("18 refuses an ID token used as an access token", async () => {
    const issued = await tokens();
    expect((await me(issued.id_token!)).status).toBe(401);
  });

  it("19 refuses a valid token in the query string", async () => {
    const issued = await tokens();
    const response = await fetch(
      `${client.base}/dams/api/v1/users/login/user?access_token=${encodeURIComponent(issued.access_token)}`,
    );
    expect(response.status).toBe(401);
  });

  it("20 refuses the access and refresh tokens of a session after logout", async () => {
    const issued = await tokens();
    const logout = await fetch(`${client.base}/dams/api/v1/auth/logout`, {
      method: "POST",
      headers: { authorization: `Bearer ${issued.access_token}` },
    });
    expect(logout.status).toBe(200);
    expect((await me(issued.access_token)).status).toBe(401);
    expect((await refresh(issued.refresh_token!)).status).toBe(400);
  });

  it("21 refuses an unknown client", async () => {
    const { response } = await authorize(client.spa, { client_id: "not-newsroom" });
    expect(response.status).toBe(400);
    expect(response.headers.get("location")).toBeNull();
  });

  it("asks the login page for credentials, not a consent screen (first-party client)", async () => {
    const authorization = await authorize(client.spa);
    const uid = interactionUid(authorization);
    const info = await authorization.jar.fetch(`${client.base}/uuas/interaction/${uid}`);
    expect(info.status).toBe(200);
    expect(((await info.json()) as { data: unknown }).data).toMatchObject({
      uid,
      prompt: "login",
      clientId: "newsroom",
      clientName: "dams newsroom",
    });
    // Another browser (no interaction cookie) cannot read or finish it.
    expect((await fetch(`${client.base}/uuas/interaction/${uid}`)).status).toBe(400);
    expect(insecure).toBeTruthy();
  });
});
