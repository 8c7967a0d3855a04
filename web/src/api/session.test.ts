import { describe, expect, it } from "vitest";
import { memoryStorage } from "../test-support";
import { ACCESS_TOKEN_TTL_MS, clearSession, getAccessToken, readStored, setAccessToken, writeStored } from "./session";

describe("session storage", () => {
  it("stores the access token under pro__Access-Token for 7 days", () => {
    const storage = memoryStorage();
    setAccessToken("abc", storage);
    expect(getAccessToken(storage)).toBe("abc");
    const raw = JSON.parse(storage.getItem("pro__Access-Token") ?? "{}");
    expect(raw.value).toBe("abc");
    expect(ACCESS_TOKEN_TTL_MS).toBe(604_800_000);
  });

  it("treats an expired value as absent and accepts a bare string", () => {
    const storage = memoryStorage({ "pro__Access-Token": "plain" });
    expect(getAccessToken(storage)).toBe("plain");
    writeStored("Access-Token", "old", 1000, storage, 0);
    expect(readStored("Access-Token", storage, 2000)).toBeNull();
  });

  it("clears every pro__ token key and reports whether one was stored", () => {
    const storage = memoryStorage({ "pro__Access-Token": "x", "pro__Refresh-Token": "y", other: "z" });
    expect(clearSession(storage)).toBe(true);
    expect(storage.getItem("pro__Access-Token")).toBeNull();
    expect(storage.getItem("pro__Refresh-Token")).toBeNull();
    expect(storage.getItem("other")).toBe("z");
    expect(clearSession(storage)).toBe(false);
  });
});
