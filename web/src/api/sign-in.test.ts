import { describe, expect, it, vi } from "vitest";
import { memoryStorage } from "../test-support";
import { codeChallenge } from "./pkce";
import {
  type AuthConfig,
  authorizeUrl,
  completeSignIn,
  exchangeCode,
  prepareSignIn,
  refreshTokens,
  safeReturnTo,
  savePending,
  TokenEndpointError,
  takePending,
} from "./sign-in";

const config: AuthConfig = {
  issuer: "http://127.0.0.1:8080/uuas",
  authorizationEndpoint: "http://127.0.0.1:8080/uuas/auth",
  tokenEndpoint: "http://127.0.0.1:8080/uuas/api/oauth/token",
  clientId: "newsroom",
  scope: "openid sso offline_access",
  prompt: "consent",
  redirectUri: "http://127.0.0.1:8080/user/login",
  resource: "http://127.0.0.1:8080/dams",
};

function tokenFetch(answer: unknown, status = 200) {
  return vi.fn(
    async (_url: string | URL | Request, _init?: RequestInit) =>
      new Response(JSON.stringify(answer), { status, headers: { "content-type": "application/json" } }),
  );
}

describe("the authorize redirect (spec section 4, step 1)", () => {
  it("asks for a code for newsroom with PKCE S256, state, scope, prompt, redirect URI and resource", () => {
    const url = new URL(authorizeUrl(config, { state: "s1", challenge: "c1", nonce: "n1" }));
    expect(url.origin + url.pathname).toBe(config.authorizationEndpoint);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: "newsroom",
      response_type: "code",
      scope: "openid sso offline_access",
      redirect_uri: "http://127.0.0.1:8080/user/login",
      code_challenge: "c1",
      code_challenge_method: "S256",
      state: "s1",
      nonce: "n1",
      prompt: "consent",
      resource: "http://127.0.0.1:8080/dams",
    });
  });

  it("leaves out prompt and resource when the configuration has none (an external issuer)", () => {
    const url = new URL(
      authorizeUrl({ ...config, prompt: undefined, resource: undefined }, { state: "s", challenge: "c" }),
    );
    expect(url.searchParams.has("prompt")).toBe(false);
    expect(url.searchParams.has("resource")).toBe(false);
  });

  it("remembers verifier and return address under the state, whose challenge goes in the address", async () => {
    const storage = memoryStorage();
    const url = new URL(await prepareSignIn(config, "/upload/image?x=1", storage, 1000));
    const state = url.searchParams.get("state") ?? "";
    expect(state).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const pending = takePending(state, storage, 2000);
    expect(pending).toMatchObject({ state, returnTo: "/upload/image?x=1", createdAt: 1000 });
    expect(url.searchParams.get("code_challenge")).toBe(await codeChallenge(pending?.verifier ?? ""));
  });

  it("gives a pending sign-in out once, and not when it is an hour old", () => {
    const storage = memoryStorage();
    savePending({ state: "a", verifier: "v", returnTo: "/x", createdAt: 0 }, storage);
    expect(takePending("a", storage, 10)).not.toBeNull();
    expect(takePending("a", storage, 10)).toBeNull();
    savePending({ state: "b", verifier: "v", returnTo: "/x", createdAt: 0 }, storage);
    expect(takePending("b", storage, 60 * 60 * 1000 + 1)).toBeNull();
    expect(takePending("unknown", storage, 10)).toBeNull();
  });

  it("remembers only same-origin paths outside the sign-in pages", () => {
    expect(safeReturnTo("/manage/userrole/user?page=2")).toBe("/manage/userrole/user?page=2");
    expect(safeReturnTo("https://evil.example/")).toBe("/frontend/search");
    expect(safeReturnTo("//evil.example/")).toBe("/frontend/search");
    expect(safeReturnTo("/user/login?code=x")).toBe("/frontend/search");
    expect(safeReturnTo(null)).toBe("/frontend/search");
  });
});

describe("the token endpoint", () => {
  it("exchanges a code with redirect_uri, verifier, client id and resource in a form body", async () => {
    const fetchImpl = tokenFetch({ access_token: "at", refresh_token: "rt", expires_in: 600, token_type: "Bearer" });
    const tokens = await exchangeCode(config, "the-code", "the-verifier", fetchImpl);
    expect(tokens).toEqual({ access_token: "at", refresh_token: "rt", expires_in: 600 });
    const [url, init] = fetchImpl.mock.calls[0] ?? [];
    expect(url).toBe("http://127.0.0.1:8080/uuas/api/oauth/token");
    expect(init?.method).toBe("POST");
    expect(Object.fromEntries(new URLSearchParams(String(init?.body)))).toEqual({
      grant_type: "authorization_code",
      code: "the-code",
      redirect_uri: "http://127.0.0.1:8080/user/login",
      code_verifier: "the-verifier",
      client_id: "newsroom",
      resource: "http://127.0.0.1:8080/dams",
    });
  });

  it("refreshes as a public client: client_id in the body, no Authorization header", async () => {
    const fetchImpl = tokenFetch({ access_token: "a2", refresh_token: "r2", expires_in: 600 });
    await refreshTokens(config, "r1", fetchImpl);
    const init = fetchImpl.mock.calls[0]?.[1];
    expect(new Headers(init?.headers).has("authorization")).toBe(false);
    expect(Object.fromEntries(new URLSearchParams(String(init?.body)))).toMatchObject({
      grant_type: "refresh_token",
      refresh_token: "r1",
      client_id: "newsroom",
    });
  });

  it("turns a refusal into a TokenEndpointError with the OAuth error", async () => {
    const refusal = refreshTokens(config, "r1", tokenFetch({ error: "invalid_grant" }, 400));
    await expect(refusal).rejects.toBeInstanceOf(TokenEndpointError);
    await expect(refusal).rejects.toMatchObject({ status: 400, error: "invalid_grant" });
    const offline = vi.fn(() => Promise.reject(new TypeError("Failed to fetch")));
    await expect(refreshTokens(config, "r1", offline)).rejects.toMatchObject({ status: null });
  });

  it("calls an answer whose body was cut off (the page leaving as it arrives) no answer, not a refusal", async () => {
    const cutOff = vi.fn(
      async () =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('{"access_token":'));
              controller.error(new DOMException("The user aborted a request.", "AbortError"));
            },
          }),
          { status: 200, headers: { "content-type": "application/json" } },
        ),
    );
    await expect(refreshTokens(config, "r1", cutOff)).rejects.toMatchObject({ status: null, error: "network_error" });
    // A complete answer that is not JSON (an HTML error page) is still the endpoint's answer.
    const html = vi.fn(async () => new Response("<h1>Bad gateway</h1>", { status: 502 }));
    await expect(refreshTokens(config, "r1", html)).rejects.toMatchObject({ status: 502, error: "invalid_response" });
  });
});

describe("the callback (spec section 4, step 2)", () => {
  it("checks the state, exchanges the code once, stores the tokens and returns the remembered path", async () => {
    const pending = memoryStorage();
    savePending({ state: "st-ok", verifier: "ver", returnTo: "/story/list", createdAt: Date.now() }, pending);
    const fetchImpl = tokenFetch({ access_token: "at", refresh_token: "rt", expires_in: 600 });
    const storeTokens = vi.fn();
    const params = new URLSearchParams("code=c&state=st-ok");
    const deps = { config: async () => config, storeTokens, fetchImpl, pending };
    expect(await completeSignIn(params, deps)).toBe("/story/list");
    // StrictMode runs effects twice: the second call shares the first exchange.
    expect(await completeSignIn(params, deps)).toBe("/story/list");
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    expect(storeTokens).toHaveBeenCalledWith({ access_token: "at", refresh_token: "rt", expires_in: 600 });
  });

  it("fails on an unknown state, an error answer or a refused code", async () => {
    const pending = memoryStorage();
    const deps = {
      pending,
      config: async () => config,
      storeTokens: vi.fn(),
      fetchImpl: tokenFetch({ error: "invalid_grant" }, 400),
    };
    await expect(completeSignIn(new URLSearchParams("code=c&state=nobody"), deps)).rejects.toMatchObject({
      error: "invalid_state",
    });
    await expect(
      completeSignIn(new URLSearchParams("error=access_denied&state=st-denied"), deps),
    ).rejects.toMatchObject({ error: "access_denied" });
    savePending({ state: "st-bad", verifier: "ver", returnTo: "/", createdAt: Date.now() }, pending);
    await expect(completeSignIn(new URLSearchParams("code=c&state=st-bad"), deps)).rejects.toMatchObject({
      error: "invalid_grant",
    });
    expect(deps.storeTokens).not.toHaveBeenCalled();
  });
});
