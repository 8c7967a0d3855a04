import { describe, expect, it } from "vitest";
import { memoryStorage } from "../test-support";
import {
  applicableSettings,
  DEFAULT_SETTINGS,
  effectiveLayout,
  loadSettings,
  PRIMARY_COLORS,
  SETTINGS_STORAGE_KEY,
  saveSettings,
} from "./settings";

describe("layout settings", () => {
  it("defaults to top menu, fixed width, dark theme, multi-tab on and #1890FF", () => {
    const settings = loadSettings(memoryStorage());
    expect(settings).toEqual(DEFAULT_SETTINGS);
    expect(settings).toMatchObject({
      navMode: "topmenu",
      contentWidth: "Fixed",
      menuTheme: "dark",
      multiTab: true,
      primaryColor: "#1890FF",
    });
    expect(PRIMARY_COLORS).toHaveLength(8);
  });

  it("saves under a pro__ key and loads the same settings after a reload", () => {
    const storage = memoryStorage();
    const changed = { ...DEFAULT_SETTINGS, menuTheme: "light" as const, primaryColor: "#722ED1", colorWeak: true };
    saveSettings(storage, changed);
    expect(SETTINGS_STORAGE_KEY.startsWith("pro__")).toBe(true);
    expect(storage.getItem(SETTINGS_STORAGE_KEY)).not.toBeNull();
    expect(loadSettings(storage)).toEqual(changed);
  });

  it("falls back to the defaults on invalid JSON", () => {
    expect(loadSettings(memoryStorage({ [SETTINGS_STORAGE_KEY]: "{oops" }))).toEqual(DEFAULT_SETTINGS);
  });

  it("falls back per field on values that are not allowed", () => {
    const storage = memoryStorage({
      [SETTINGS_STORAGE_KEY]: JSON.stringify({ menuTheme: "purple", primaryColor: "#123456", multiTab: false }),
    });
    expect(loadSettings(storage)).toEqual({ ...DEFAULT_SETTINGS, multiTab: false });
  });
});

describe("effectiveLayout and option rules", () => {
  it("puts the back area on a side menu always and the front area on top unless sidemenu is chosen", () => {
    expect(effectiveLayout("back", { navMode: "topmenu" })).toBe("side");
    expect(effectiveLayout("front", { navMode: "topmenu" })).toBe("top");
    expect(effectiveLayout("front", { navMode: "sidemenu" })).toBe("side");
  });

  it("allows Fluid only for a top menu, auto-hide only with a fixed header, fixed sidebar never on top", () => {
    const wanted = {
      ...DEFAULT_SETTINGS,
      contentWidth: "Fluid" as const,
      autoHideHeader: true,
      fixedHeader: false,
      fixSiderbar: true,
    };
    expect(applicableSettings(wanted, "top")).toMatchObject({
      contentWidth: "Fluid",
      autoHideHeader: false,
      fixSiderbar: false,
    });
    expect(applicableSettings({ ...wanted, fixedHeader: true }, "side")).toMatchObject({
      contentWidth: "Fixed",
      autoHideHeader: true,
      fixSiderbar: true,
    });
  });
});
