// @vitest-environment jsdom
import { notification } from "antd";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError, bearerToken, endSession } from "./http";
import { getRefreshToken, storeTokens } from "./session";

describe("ending the session (spec sections 4 and 8)", () => {
  const reload = vi.fn();

  beforeEach(() => {
    reload.mockClear();
    vi.useFakeTimers();
    vi.spyOn(notification, "error").mockImplementation(() => undefined);
    Object.defineProperty(window, "location", { value: { ...window.location, reload }, configurable: true });
  });

  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("reloads once, with the 'Unauthorized' message, even when another tab removed the tokens first", () => {
    storeTokens({ access_token: "at", refresh_token: "rt", expires_in: 30 });
    // Another tab's refresh was refused: it removed the shared tokens before this page ended its session.
    localStorage.clear();
    endSession();
    endSession();
    expect(notification.error).toHaveBeenCalledTimes(1);
    vi.runAllTimers();
    expect(reload).toHaveBeenCalledTimes(1);
    expect(getRefreshToken()).toBeNull();
  });

  it("keeps the session when the refresh cannot even fetch the sign-in configuration (a reload cut it off)", async () => {
    storeTokens({ access_token: "at", refresh_token: "rt", expires_in: 30 }, localStorage, Date.now() - 60_000);
    const fetchMock = vi.fn(async () => {
      throw new TypeError("Failed to fetch");
    });
    vi.stubGlobal("fetch", fetchMock);
    try {
      const refused = await bearerToken().catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ApiError);
      expect((refused as ApiError).status).toBeNull();
      expect((refused as ApiError).code).not.toBe("session_expired");
      expect(fetchMock).toHaveBeenCalledWith("/dams/api/v1/auth/config", expect.anything());
      expect(getRefreshToken()).toBe("rt");
      vi.runAllTimers();
      expect(reload).not.toHaveBeenCalled();
    } finally {
      vi.unstubAllGlobals();
      localStorage.clear();
    }
  });
});
