// @vitest-environment jsdom
import { notification } from "antd";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { endSession } from "./http";
import { getRefreshToken, storeTokens } from "./session";

describe("ending the session (spec sections 4 and 8)", () => {
  const reload = vi.fn();

  beforeEach(() => {
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
});
