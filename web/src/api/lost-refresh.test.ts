// @vitest-environment jsdom
import { notification } from "antd";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getRefreshToken, markRefreshSent, readRefreshSent, storeTokens } from "./session";
import { takePending } from "./sign-in";

const config = {
  issuer: "http://localhost/uuas",
  authorizationEndpoint: "http://localhost/uuas/auth",
  tokenEndpoint: "http://localhost/uuas/api/oauth/token",
  clientId: "newsroom",
  scope: "openid sso offline_access",
  redirectUri: "http://localhost/user/login",
};

describe("a refresh token another page sent without getting the answer", () => {
  const assign = vi.fn();
  const reload = vi.fn();
  const fetchMock = vi.fn(async (input: string | URL | Request) => {
    if (String(input) === "/dams/api/v1/auth/config") return Response.json({ data: config });
    return Response.json({ error: "invalid_grant" }, { status: 400 });
  });

  /** A fresh page at `address` whose stored refresh token the page before it sent without getting the answer. */
  async function pageAfterLostAnswer(address: string) {
    const url = new URL(address, "http://localhost");
    Object.defineProperty(window, "location", {
      value: { origin: url.origin, pathname: url.pathname, search: url.search, hash: url.hash, assign, reload },
      configurable: true,
    });
    storeTokens({ access_token: "at", refresh_token: "r1", expires_in: 30 }, localStorage, Date.now() - 60_000);
    markRefreshSent({ refreshToken: "r1", page: "the page before the reload" });
    vi.resetModules();
    return import("./http");
  }

  beforeEach(() => {
    assign.mockClear();
    reload.mockClear();
    fetchMock.mockClear();
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    vi.spyOn(notification, "error").mockImplementation(() => undefined);
    vi.stubGlobal("fetch", fetchMock);
  });

  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    localStorage.clear();
    sessionStorage.clear();
  });

  it("is not redeemed: the sign-in starts again, back to the same page, with no 'Unauthorized' and no reload", async () => {
    const { ApiError, bearerToken } = await pageAfterLostAnswer("/story/list?fulltext=typhoon");
    const refused = bearerToken();
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    // Silent for the callers: a session_expired 401 shows nothing of its own.
    await expect(refused).rejects.toMatchObject({ status: 401, code: "session_expired" });
    await vi.waitFor(() => expect(assign).toHaveBeenCalledTimes(1));

    const authorize = new URL(assign.mock.calls[0]?.[0] as string);
    expect(authorize.origin + authorize.pathname).toBe(config.authorizationEndpoint);
    const pending = takePending(authorize.searchParams.get("state") ?? "");
    expect(pending?.returnTo).toBe("/story/list?fulltext=typhoon");
    expect(fetchMock.mock.calls.map(([input]) => String(input))).toEqual(["/dams/api/v1/auth/config"]);
    expect(notification.error).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(reload).not.toHaveBeenCalled();
    // The browser's other pages find the token and its mark as they were, and do not redeem it either.
    expect(getRefreshToken()).toBe("r1");
    expect(readRefreshSent()).toEqual({ refreshToken: "r1", page: "the page before the reload" });
  });

  it("leaves a sign-in page alone: the sign-in under way there replaces the tokens", async () => {
    const { bearerToken } = await pageAfterLostAnswer("/user/login?code=c1&state=s1");
    await expect(bearerToken()).rejects.toMatchObject({ status: 401, code: "session_expired" });
    vi.runAllTimers();
    expect(assign).not.toHaveBeenCalled();
    expect(reload).not.toHaveBeenCalled();
    expect(notification.error).not.toHaveBeenCalled();
    expect(getRefreshToken()).toBe("r1");
  });

  it("ends the session as before on a page exempt from login, which never signs in by itself", async () => {
    const { bearerToken } = await pageAfterLostAnswer("/source/ismpsource");
    await expect(bearerToken()).rejects.toMatchObject({ status: 401, code: "session_expired" });
    vi.runAllTimers();
    expect(assign).not.toHaveBeenCalled();
    expect(notification.error).toHaveBeenCalledTimes(1);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(getRefreshToken()).toBeNull();
  });
});
