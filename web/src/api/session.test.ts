import { describe, expect, it } from "vitest";
import { memoryStorage } from "../test-support";
import {
  ACCESS_TOKEN_TTL_MS,
  clearSession,
  EXEMPT_ROUTES,
  expiryTime,
  getAccessToken,
  hasSession,
  isExemptPath,
  markRefreshSent,
  parseHashToken,
  readRefreshSent,
  readStored,
  setAccessToken,
  storeTokens,
  tokenStatus,
  writeStored,
} from "./session";

const NOW = 1_700_000_000_000;
const raw = (storage: Storage, key: string) => JSON.parse(storage.getItem(`pro__${key}`) ?? "null");

describe("session storage", () => {
  it("stores the access token under pro__Access-Token for 7 days", () => {
    const storage = memoryStorage();
    setAccessToken("abc", storage, NOW);
    expect(getAccessToken(storage, NOW)).toBe("abc");
    expect(raw(storage, "Access-Token")).toEqual({ value: "abc", expire: NOW + 604_800_000 });
    expect(ACCESS_TOKEN_TTL_MS).toBe(604_800_000);
    expect(getAccessToken(storage, NOW + ACCESS_TOKEN_TTL_MS + 1)).toBeNull();
  });

  it("treats an expired value as absent and accepts a bare string", () => {
    const storage = memoryStorage({ "pro__Access-Token": "plain" });
    expect(getAccessToken(storage)).toBe("plain");
    writeStored("Access-Token", "old", 1000, storage, 0);
    expect(readStored("Access-Token", storage, 2000)).toBeNull();
  });

  it("stores a token set: access token (7 days), refresh_token, expires_in and expiry = now + expires_in s", () => {
    const storage = memoryStorage();
    storeTokens({ access_token: "at", refresh_token: "rt", expires_in: 600 }, storage, NOW);
    expect(raw(storage, "Access-Token")).toEqual({ value: "at", expire: NOW + ACCESS_TOKEN_TTL_MS });
    expect(raw(storage, "refresh_token")).toEqual({ value: "rt", expire: null });
    expect(raw(storage, "expires_in").value).toBe("600");
    expect(Number(raw(storage, "expiry_time").value)).toBe(NOW + 600_000);
    expect(expiryTime(30, NOW)).toBe(NOW + 30_000);
  });

  it("keeps the stored refresh token when a token set brings none, and forgets an unknown expiry", () => {
    const storage = memoryStorage();
    storeTokens({ access_token: "a1", refresh_token: "r1", expires_in: 60 }, storage, NOW);
    storeTokens({ access_token: "a2" }, storage, NOW);
    expect(readStored("refresh_token", storage)).toBe("r1");
    expect(storage.getItem("pro__expiry_time")).toBeNull();
    expect(tokenStatus(storage, NOW + 10 * 60_000)).toEqual({ kind: "valid", accessToken: "a2" });
  });

  it("says what the stored tokens allow", () => {
    const storage = memoryStorage();
    expect(tokenStatus(storage, NOW)).toEqual({ kind: "none" });
    expect(hasSession(storage, NOW)).toBe(false);
    storeTokens({ access_token: "at", refresh_token: "rt", expires_in: 60 }, storage, NOW);
    expect(tokenStatus(storage, NOW + 1000)).toEqual({ kind: "valid", accessToken: "at" });
    // Within 5 s of the expiry the token is refreshed before use.
    expect(tokenStatus(storage, NOW + 56_000)).toEqual({ kind: "refresh", refreshToken: "rt" });
    expect(hasSession(storage, NOW + 56_000)).toBe(true);
    storage.removeItem("pro__refresh_token");
    expect(tokenStatus(storage, NOW + 61_000)).toEqual({ kind: "stale" });
    expect(hasSession(storage, NOW + 61_000)).toBe(false);
    storage.removeItem("pro__Access-Token");
    expect(tokenStatus(storage, NOW + 61_000)).toEqual({ kind: "stale" });
    expect(tokenStatus(storage, NOW + 1000)).toEqual({ kind: "stale" });
  });

  it("clears every pro__ token key and reports whether one was stored", () => {
    const storage = memoryStorage({
      "pro__Access-Token": "x",
      pro__refresh_token: "y",
      pro__expires_in: "1",
      pro__expiry_time: "2",
      pro__refresh_sent: "3",
      pro__lang: "en-US",
      other: "z",
    });
    expect(clearSession(storage)).toBe(true);
    for (const key of ["Access-Token", "refresh_token", "expires_in", "expiry_time", "refresh_sent"]) {
      expect(storage.getItem(`pro__${key}`)).toBeNull();
    }
    expect(storage.getItem("pro__lang")).toBe("en-US");
    expect(storage.getItem("other")).toBe("z");
    expect(clearSession(storage)).toBe(false);
  });

  it("drops the mark of a refresh on the wire once another refresh token is stored", () => {
    const storage = memoryStorage();
    storeTokens({ access_token: "a1", refresh_token: "r1", expires_in: 30 }, storage, NOW);
    markRefreshSent({ refreshToken: "r1", page: "p" }, storage);
    expect(readRefreshSent(storage)).toEqual({ refreshToken: "r1", page: "p" });
    // A token set without a refresh token (a hash token) keeps the stored one, and its mark.
    storeTokens({ access_token: "a2" }, storage, NOW);
    expect(readRefreshSent(storage)).toEqual({ refreshToken: "r1", page: "p" });
    storeTokens({ access_token: "a3", refresh_token: "r2", expires_in: 30 }, storage, NOW);
    expect(readRefreshSent(storage)).toBeNull();
  });
});

describe("a token in the URL hash", () => {
  it("reads access_token, refresh_token and expires_in", () => {
    expect(parseHashToken("#access_token=abc&refresh_token=def&expires_in=600&token_type=Bearer")).toEqual({
      access_token: "abc",
      refresh_token: "def",
      expires_in: 600,
    });
  });

  it("accepts an access token alone and ignores a bad expires_in", () => {
    expect(parseHashToken("#access_token=abc&expires_in=soon")).toEqual({
      access_token: "abc",
      refresh_token: undefined,
      expires_in: undefined,
    });
  });

  it("finds nothing in other hashes", () => {
    expect(parseHashToken("")).toBeNull();
    expect(parseHashToken("#section-2")).toBeNull();
    expect(parseHashToken("#access_token=")).toBeNull();
  });
});

describe("routes exempt from login (spec section 2)", () => {
  it("names the twelve routes of the spec", () => {
    expect(Object.keys(EXEMPT_ROUTES).sort()).toEqual(
      [
        "login",
        "register",
        "registerResult",
        "ismpsource",
        "editimg",
        "ismpupload",
        "ismpnetdisk",
        "download",
        "editphoto",
        "storyPreview",
        "redirect",
        "ismpVideosEdit",
      ].sort(),
    );
  });

  it.each([
    "/user/login",
    "/user/register",
    "/user/register-result",
    "/source/ismpsource",
    "/source/editimg",
    "/source/editphoto",
    "/source/ismpupload",
    "/source/ismpnetdisk",
    "/source/ismpVideosEdit",
    "/share/storyPreview",
    "/redirect",
    "/redirect/upload/image",
    "/403",
    "/500",
  ])("%s needs no session", (path) => {
    expect(isExemptPath(path)).toBe(true);
  });

  it.each(["/", "/frontend/search", "/backend", "/manage/userrole/user", "/share/netdisk", "/user", "/redirector"])(
    "%s needs one",
    (path) => {
      expect(isExemptPath(path)).toBe(false);
    },
  );
});
