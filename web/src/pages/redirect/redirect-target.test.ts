import { describe, expect, it } from "vitest";
import { redirectTarget } from "./redirect-target";

describe("redirectTarget", () => {
  it("follows ?to= and /redirect/* to same-origin paths", () => {
    expect(redirectTarget("/redirect", "/upload/image")).toBe("/upload/image");
    expect(redirectTarget("/redirect/upload/image", null, "?a=1")).toBe("/upload/image?a=1");
    expect(redirectTarget("/redirect", null)).toBe("/");
  });

  it("refuses other origins", () => {
    expect(redirectTarget("/redirect", "https://evil.example")).toBe("/");
    expect(redirectTarget("/redirect", "//evil.example")).toBe("/");
  });
});
