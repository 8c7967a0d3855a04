import { describe, expect, it } from "vitest";
import { deviceClass, SIDEBAR_COLLAPSED_WIDTH, SIDEBAR_WIDTH, sidebarCollapsed } from "./device";

describe("deviceClass", () => {
  it.each([
    [0, "mobile"],
    [375, "mobile"],
    [575, "mobile"],
    [576, "tablet"],
    [800, "tablet"],
    [1199, "tablet"],
    [1200, "desktop"],
    [1440, "desktop"],
  ] as const)("width %i is %s", (width, expected) => {
    expect(deviceClass(width)).toBe(expected);
  });
});

describe("sidebarCollapsed", () => {
  it("keeps the sidebar open on desktop and mobile and collapses it on tablet", () => {
    expect(sidebarCollapsed("desktop")).toBe(false);
    expect(sidebarCollapsed("mobile")).toBe(false);
    expect(sidebarCollapsed("tablet")).toBe(true);
  });

  it("uses the spec's widths", () => {
    expect(SIDEBAR_WIDTH).toBe(256);
    expect(SIDEBAR_COLLAPSED_WIDTH).toBe(80);
  });
});
