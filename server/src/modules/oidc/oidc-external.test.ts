import { generateKeyPair, SignJWT } from "jose";
import * as oauth from "oauth4webapi";
import { beforeAll, expect, it } from "vitest";
import { describeEachDialect, useTestApp } from "../../test/dialects.js";
import { discover, exchangeCode, listen, type SpaClient, signInToCallback } from "../../test/oidc-flow.js";
import { freePort } from "../../test/ports.js";
import { UsersRepository } from "../users/users.repository.js";
import { UsersService } from "../users/users.service.js";

const chief = { username: "chief.editor", password: "chief password 1" };
const stringer = { username: "stringer.ma", password: "stringer password" };

/**
 * External-issuer mode, configured only through the environment: a second
 * dams instance on another port runs the embedded provider and plays the
 * external issuer (as Keycloak or Authentik would).
 */
describeEachDialect("oidc with an external issuer", (dialect) => {
  const issuerEnv: Record<string, string> = {};
  const damsEnv: Record<string, string> = {};
  beforeAll(async () => {
    const [issuerPort, damsPort] = [await freePort(), await freePort()];
    const issuerBase = `http://127.0.0.1:${issuerPort}`;
    const damsBase = `http://127.0.0.1:${damsPort}`;
    Object.assign(issuerEnv, {
      PORT: String(issuerPort),
      DAMS_PUBLIC_URL: issuerBase,
      // The external issuer knows the dams SPA's redirect URI.
      DAMS_OIDC_REDIRECT_URIS: `${damsBase}/user/login`,
    });
    Object.assign(damsEnv, {
      PORT: String(damsPort),
      DAMS_PUBLIC_URL: damsBase,
      DAMS_OIDC_ISSUER_URL: `${issuerBase}/uuas`,
      DAMS_OIDC_AUDIENCE: `${issuerBase}/dams`,
      DAMS_OIDC_ADMIN_CLAIM: "preferred_username=chief.editor",
    });
  });
  const issuer = useTestApp(dialect, { env: issuerEnv });
  listen(issuer);
  const dams = useTestApp(dialect, { env: damsEnv });
  listen(dams);

  let spa: SpaClient;
  let damsBase: string;
  let issuerBase: string;

  beforeAll(async () => {
    damsBase = dams().config.oidc.publicBase;
    issuerBase = issuer().config.oidc.publicBase;
    const users = new UsersService(new UsersRepository(issuer().db));
    await users.createUser({ ...chief, name: "总编辑" });
    await users.createUser({ ...stringer, name: "马通讯员" });
    const response = await fetch(`${damsBase}/dams/api/v1/auth/config`);
    const { data } = (await response.json()) as {
      data: { issuer: string; redirectUri: string; resource: string; tokenEndpoint: string };
    };
    expect(data.issuer).toBe(`${issuerBase}/uuas`);
    expect(data.tokenEndpoint).toBe(`${issuerBase}/uuas/api/oauth/token`);
    spa = await discover(data.issuer, data.redirectUri, data.resource);
  });

  async function accessTokenFor(credentials: { username: string; password: string }) {
    const authorization = await signInToCallback(spa, issuerBase, credentials);
    const tokens = await oauth.processAuthorizationCodeResponse(
      spa.as,
      spa.client,
      await exchangeCode(spa, authorization),
      { expectedNonce: authorization.nonce, requireIdToken: true },
    );
    return tokens.access_token;
  }

  const me = (token: string) =>
    fetch(`${damsBase}/dams/api/v1/users/login/user`, { headers: { authorization: `Bearer ${token}` } });

  it("does not mount the embedded provider", async () => {
    expect((await fetch(`${damsBase}/uuas/.well-known/openid-configuration`)).status).toBe(404);
  });

  it("provisions users from the issuer's claims on first sign-in, with the admin claim", async () => {
    const chiefToken = await accessTokenFor(chief);
    const first = await me(chiefToken);
    expect(first.status).toBe(200);
    expect(((await first.json()) as { data: unknown }).data).toMatchObject({
      username: "chief.editor",
      name: "总编辑",
      admin: true,
    });
    const stringerToken = await accessTokenFor(stringer);
    const second = await me(stringerToken);
    expect(((await second.json()) as { data: unknown }).data).toMatchObject({ username: "stringer.ma", admin: false });
    // The second call finds the same user rather than provisioning another.
    expect((await me(chiefToken)).status).toBe(200);
    const repository = new UsersRepository(dams().db);
    const provisioned = await repository.findByUsername("chief.editor");
    expect(provisioned?.external_subject).toBeTruthy();
    expect(provisioned?.password_hash).toBeNull();
  });

  it("refuses a token with the issuer's claims signed by a key outside its JWKS", async () => {
    const { privateKey } = await generateKeyPair("RS256");
    const now = Math.floor(Date.now() / 1000);
    const forged = await new SignJWT({ scope: "sso", preferred_username: "chief.editor" })
      .setProtectedHeader({ alg: "RS256", typ: "at+jwt", kid: "not-theirs" })
      .setIssuer(`${issuerBase}/uuas`)
      .setAudience(`${issuerBase}/dams`)
      .setSubject("someone")
      .setIssuedAt(now)
      .setExpirationTime(now + 300)
      .sign(privateKey);
    expect((await me(forged)).status).toBe(401);
    expect(await new UsersRepository(dams().db).findByExternalSubject("someone")).toBeUndefined();
  });

  it("logout answers with the issuer's end-session endpoint", async () => {
    const token = await accessTokenFor(stringer);
    const response = await fetch(`${damsBase}/dams/api/v1/auth/logout`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: unknown }).data).toEqual({
      endSessionEndpoint: `${issuerBase}/uuas/session/end`,
    });
  });
});
