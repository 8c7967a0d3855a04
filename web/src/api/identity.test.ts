import { describe, expect, it } from "vitest";
import { createI18n } from "../locales/both-languages";
import { retryWait } from "../pages/user/components/retry-wait";
import { retryAfterSeconds } from "./identity";

describe("a 429's Retry-After", () => {
  it("reads seconds or an HTTP date", () => {
    expect(retryAfterSeconds("120")).toBe(120);
    expect(retryAfterSeconds("1.2")).toBe(2);
    expect(retryAfterSeconds("Thu, 01 Jan 2026 00:01:00 GMT", Date.parse("2026-01-01T00:00:00Z"))).toBe(60);
    expect(retryAfterSeconds(null)).toBeNull();
    expect(retryAfterSeconds("soon")).toBeNull();
  });

  it("tells the user how long to wait", () => {
    const en = createI18n("en-US");
    const t = (key: string, params?: Record<string, unknown>) => en.t(key, params);
    expect(retryWait(30, t)).toBe("in 30 s");
    expect(retryWait(61, t)).toBe("in 2 min");
    expect(retryWait(null, t)).toBe("later");
    expect(en.t("user.login.throttled", { wait: retryWait(900, t) })).toBe(
      "Too many failed attempts. Try again in 15 min.",
    );
  });
});
