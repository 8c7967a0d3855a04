import * as oauth from "oauth4webapi";
import { beforeAll } from "vitest";
import { type DialectName, type TestApp, useTestApp } from "./dialects.js";
import { freePort } from "./ports.js";

/**
 * Environment for an app that will listen on 127.0.0.1 at a port chosen in
 * beforeAll; call it BEFORE useTestApp so the env is filled in when the app is built.
 */
export function listeningEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = { ...extra };
  beforeAll(async () => {
    const port = await freePort();
    env.PORT = String(port);
    env.DAMS_PUBLIC_URL = `http://127.0.0.1:${port}`;
  });
  return env;
}

export function listen(testApp: () => TestApp): void {
  beforeAll(async () => {
    const { app, config } = testApp();
    await app.listen({ port: config.port, host: "127.0.0.1" });
  });
}

/** The SPA's view of an app under test: its client, discovered from the app's issuer, and the app's public base URL. */
export interface SignInClient {
  spa: SpaClient;
  base: string;
}

/**
 * The app of a sign-in test, listening on 127.0.0.1 at a free port, and the SPA client discovered from its issuer;
 * `client` is filled in by beforeAll.
 */
export function useSignInApp(dialect: DialectName): { testApp: () => TestApp; client: SignInClient } {
  const env = listeningEnv();
  const testApp = useTestApp(dialect, { env });
  listen(testApp);
  const client = {} as SignInClient;
  beforeAll(async () => {
    client.base = testApp().config.oidc.publicBase;
    client.spa = await discover(`${client.base}/uuas`, `${client.base}/user/login`, `${client.base}/dams`);
  });
  return { testApp, client };
}

/** The browser's cookie store, enough for oidc-provider's path-scoped, expiring cookies. */
export class CookieJar {
  readonly #cookies = new Map<string, { name: string; value: string; path: string }>();

  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = header.split(";").map((part) => part.trim());
      const equals = pair.indexOf("=");
      const name = pair.slice(0, equals);
      const value = pair.slice(equals + 1);
      let path = "/";
      let expired = value === "";
      for (const attribute of attributes) {
        const [key = "", attributeValue = ""] = attribute.split("=");
        if (key.toLowerCase() === "path") path = attributeValue;
        if (key.toLowerCase() === "max-age" && Number(attributeValue) <= 0) expired = true;
        if (key.toLowerCase() === "expires" && Date.parse(attributeValue) <= Date.now()) expired = true;
      }
      const id = `${name}@${path}`;
      if (expired) this.#cookies.delete(id);
      else this.#cookies.set(id, { name, value, path });
    }
  }

  header(url: string): string {
    const { pathname } = new URL(url);
    return [...this.#cookies.values()]
      .filter(
        (cookie) =>
          pathname === cookie.path || pathname.startsWith(cookie.path.endsWith("/") ? cookie.path : `${cookie.path}/`),
      )
      .map((cookie) => `${cookie.name}=${cookie.value}`)
      .join("; ");
  }

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const cookie = this.header(url);
    if (cookie) headers.set("cookie", cookie);
    const response = await fetch(url, { ...init, headers, redirect: "manual" });
    this.store(response);
    return response;
  }
}

export const insecure = { [oauth.allowInsecureRequests]: true } as const;

export interface SpaClient {
  as: oauth.AuthorizationServer;
  client: oauth.Client;
  redirectUri: string;
  resource: string;
}

export async function discover(issuer: string, redirectUri: string, resource: string): Promise<SpaClient> {
  const issuerUrl = new URL(issuer);
  const as = await oauth.processDiscoveryResponse(issuerUrl, await oauth.discoveryRequest(issuerUrl, insecure));
  return { as, client: { client_id: "newsroom" }, redirectUri, resource };
}

export interface Authorization {
  jar: CookieJar;
  verifier: string;
  state: string;
  nonce: string;
  /** The provider's answer to the authorize request. */
  response: Response;
}

/** The browser going to the authorize endpoint; `params` override or remove (undefined) defaults. */
export async function authorize(
  spa: SpaClient,
  params: Record<string, string | undefined> = {},
  jar = new CookieJar(),
): Promise<Authorization> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const nonce = oauth.generateRandomNonce();
  const url = new URL(spa.as.authorization_endpoint!);
  const all: Record<string, string | undefined> = {
    client_id: spa.client.client_id,
    response_type: "code",
    scope: "openid sso offline_access",
    prompt: "consent",
    redirect_uri: spa.redirectUri,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    nonce,
    resource: spa.resource,
    ...params,
  };
  for (const [key, value] of Object.entries(all)) if (value !== undefined) url.searchParams.set(key, value);
  const response = await jar.fetch(url.href);
  return { jar, verifier, state, nonce, response };
}

/** Where the provider sent the browser: the login page's uid. */
export function interactionUid(authorization: Authorization): string {
  const location = authorization.response.headers.get("location");
  if (authorization.response.status !== 303 || !location) {
    throw new Error(`authorize answered ${authorization.response.status} ${location ?? ""}`);
  }
  const uid = new URL(location, "http://x").searchParams.get("uid");
  if (!uid) throw new Error(`no uid in ${location}`);
  return uid;
}

export async function postJson(
  jar: CookieJar,
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return jar.fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

/** authorize → login page → credentials → resume: the callback URL with the code. */
export async function signInToCallback(
  spa: SpaClient,
  base: string,
  credentials: { username: string; password: string },
  params: Record<string, string | undefined> = {},
): Promise<Authorization & { callback: URL }> {
  const authorization = await authorize(spa, params);
  const uid = interactionUid(authorization);
  const login = await postJson(authorization.jar, `${base}/uuas/interaction/${uid}/login`, credentials);
  if (login.status !== 200) throw new Error(`login answered ${login.status}: ${await login.text()}`);
  const { data } = (await login.json()) as { data: { redirectTo: string } };
  let next = data.redirectTo;
  for (let hop = 0; hop < 5; hop++) {
    const response = await authorization.jar.fetch(next);
    const location = response.headers.get("location");
    if (!location) throw new Error(`resume answered ${response.status}: ${await response.text()}`);
    const url = new URL(location, next);
    if (url.href.startsWith(spa.redirectUri)) return { ...authorization, callback: url };
    next = url.href;
  }
  throw new Error("too many redirects");
}

export async function exchangeCode(
  spa: SpaClient,
  authorization: Authorization & { callback: URL },
  codeVerifier = authorization.verifier,
): Promise<Response> {
  const params = oauth.validateAuthResponse(spa.as, spa.client, authorization.callback, authorization.state);
  return oauth.authorizationCodeGrantRequest(spa.as, spa.client, oauth.None(), params, spa.redirectUri, codeVerifier, {
    ...insecure,
    additionalParameters: { resource: spa.resource },
  });
}

/** The raw token endpoint, for requests oauth4webapi would refuse to build. */
export async function tokenRequest(spa: SpaClient, body: Record<string, string>): Promise<Response> {
  return fetch(spa.as.token_endpoint!, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(body),
  });
}
