// @vitest-environment jsdom
import { notification } from "antd";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError, bearerToken } from "./http";
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

  beforeEach(() => {
    vi.spyOn(notification, "error").mockImplementation(() => undefined);
    vi.stubGlobal("fetch", fetchMock);
    Object.defineProperty(window, "location", {
      value: {
        origin: "http://localhost",
        pathname: "/story/list",
        search: "?fulltext=typhoon",
        hash: "",
        assign,
        reload,
      },
      configurable: true,
    });
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    localStorage.clear();
    sessionStorage.clear();
  });

  it("is not redeemed: the sign-in starts again, back to the same page, with no 'Unauthorized' and no reload", async () => {
    storeTokens({ access_token: "at", refresh_token: "r1", expires_in: 30 }, localStorage, Date.now() - 60_000);
    // The page before this reload sent the refresh grant and left before its answer.
    markRefreshSent({ refreshToken: "r1", page: "the page before the reload" });

    const refused = await bearerToken().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    // Silent for the callers: a session_expired 401 shows nothing of its own.
    expect((refused as ApiError).code).toBe("session_expired");
    await vi.waitFor(() => expect(assign).toHaveBeenCalledTimes(1));

    const authorize = new URL(assign.mock.calls[0]?.[0] as string);
    expect(authorize.origin + authorize.pathname).toBe(config.authorizationEndpoint);
    const pending = takePending(authorize.searchParams.get("state") ?? "");
    expect(pending?.returnTo).toBe("/story/list?fulltext=typhoon");
    expect(fetchMock.mock.calls.map(([input]) => String(input))).toEqual(["/dams/api/v1/auth/config"]);
    expect(notification.error).not.toHaveBeenCalled();
    expect(reload).not.toHaveBeenCalled();
    // The browser's other pages find the token and its mark as they were, and do not redeem it either.
    expect(getRefreshToken()).toBe("r1");
    expect(readRefreshSent()).toEqual({ refreshToken: "r1", page: "the page before the reload" });
  });
});
