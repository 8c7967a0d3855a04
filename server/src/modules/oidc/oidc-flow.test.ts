import { decodeJwt } from "jose";
import * as oauth from "oauth4webapi";
import { beforeAll, expect, it } from "vitest";
import { describeEachDialect } from "../../test/dialects.js";
import { exchangeCode, insecure, signInToCallback, useSignInApp } from "../../test/oidc-flow.js";
import { UsersRepository } from "../users/users.repository.js";
import { UsersService } from "../users/users.service.js";

const reporter = { username: "reporter.wang", password: "correct horse battery" };

describeEachDialect("oidc sign-in flow", (dialect) => {
  const { testApp, client } = useSignInApp(dialect);
  let userId: string;

  beforeAll(async () => {
    const user = await new UsersService(new UsersRepository(testApp().db)).createUser({ ...reporter, name: "王记者" });
    userId = user.id;
  });

  const api = (path: string, token: string, init: RequestInit = {}) =>
    fetch(`${client.base}/dams/api/v1${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, ...init.headers },
    });

  it("runs code + PKCE, refreshes with rotation, and logs out", async () => {
    expect(client.spa.as.token_endpoint).toBe(`${client.base}/uuas/api/oauth/token`);
    const authorization = await signInToCallback(client.spa, client.base, reporter);
    const response = await exchangeCode(client.spa, authorization);
    const tokens = await oauth.processAuthorizationCodeResponse(client.spa.as, client.spa.client, response, {
      expectedNonce: authorization.nonce,
      requireIdToken: true,
    });
    const idToken = oauth.getValidatedIdTokenClaims(tokens)!;
    expect(idToken.iss).toBe(`${client.base}/uuas`);
    expect(idToken.aud).toBe("newsroom");
    expect(idToken.sub).toBe(userId);
    const access = decodeJwt(tokens.access_token);
    expect(access).toMatchObject({
      iss: `${client.base}/uuas`,
      aud: `${client.base}/dams`,
      sub: userId,
      client_id: "newsroom",
    });
    expect(access.exp! - access.iat!).toBe(600);
    expect(tokens.refresh_token).toBeTruthy();

    const me = await api("/users/login/user", tokens.access_token);
    expect(me.status).toBe(200);

    const refreshed = await oauth.processRefreshTokenResponse(
      client.spa.as,
      client.spa.client,
      await oauth.refreshTokenGrantRequest(
        client.spa.as,
        client.spa.client,
        oauth.None(),
        tokens.refresh_token!,
        insecure,
      ),
    );
    expect(refreshed.refresh_token).toBeTruthy();
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);

    const logout = await api("/auth/logout", refreshed.access_token, { method: "POST" });
    expect(logout.status).toBe(200);
    expect((await api("/users/login/user", refreshed.access_token)).status).toBe(401);
    const afterLogout = await oauth.refreshTokenGrantRequest(
      client.spa.as,
      client.spa.client,
      oauth.None(),
      refreshed.refresh_token!,
      insecure,
    );
    expect(afterLogout.status).toBe(400);
  });
});
