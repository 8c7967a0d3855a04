/**
 * Layout settings (spec sections 2 and 9), persisted in localStorage under a
 * `pro__` key. Defaults: top menu, fixed width, dark theme, multi-tab on.
 */

export type MenuTheme = "dark" | "light";
export type NavMode = "sidemenu" | "topmenu";
export type ContentWidth = "Fixed" | "Fluid";
export type Area = "front" | "back";

export interface LayoutSettings {
  menuTheme: MenuTheme;
  primaryColor: string;
  navMode: NavMode;
  contentWidth: ContentWidth;
  fixedHeader: boolean;
  autoHideHeader: boolean;
  fixSiderbar: boolean;
  colorWeak: boolean;
  multiTab: boolean;
}

export const PRIMARY_COLORS = [
  { key: "daybreak", color: "#1890FF" },
  { key: "dust", color: "#F5222D" },
  { key: "volcano", color: "#FA541C" },
  { key: "sunset", color: "#FAAD14" },
  { key: "cyan", color: "#13C2C2" },
  { key: "green", color: "#52C41A" },
  { key: "geekblue", color: "#2F54EB" },
  { key: "purple", color: "#722ED1" },
] as const;

export const DEFAULT_SETTINGS: LayoutSettings = {
  menuTheme: "dark",
  primaryColor: "#1890FF",
  navMode: "topmenu",
  contentWidth: "Fixed",
  fixedHeader: false,
  autoHideHeader: false,
  fixSiderbar: false,
  colorWeak: false,
  multiTab: true,
};

/** Spec section 9: the header hides on scroll down past this position. */
export const AUTO_HIDE_HEADER_THRESHOLD = 300;

export const SETTINGS_STORAGE_KEY = "pro__Layout-Settings";

const pick = <T extends string>(value: unknown, allowed: readonly T[], fallback: T): T =>
  allowed.includes(value as T) ? (value as T) : fallback;
const bool = (value: unknown, fallback: boolean): boolean => (typeof value === "boolean" ? value : fallback);

/** Keeps only valid values; anything else falls back to its default. */
export function normalizeSettings(input: unknown): LayoutSettings {
  const raw = input && typeof input === "object" ? (input as Record<string, unknown>) : {};
  const d = DEFAULT_SETTINGS;
  const colors = PRIMARY_COLORS.map((preset) => preset.color);
  return {
    menuTheme: pick(raw.menuTheme, ["dark", "light"], d.menuTheme),
    primaryColor: pick(
      typeof raw.primaryColor === "string" ? raw.primaryColor.toUpperCase() : undefined,
      colors,
      d.primaryColor,
    ),
    navMode: pick(raw.navMode, ["sidemenu", "topmenu"], d.navMode),
    contentWidth: pick(raw.contentWidth, ["Fixed", "Fluid"], d.contentWidth),
    fixedHeader: bool(raw.fixedHeader, d.fixedHeader),
    autoHideHeader: bool(raw.autoHideHeader, d.autoHideHeader),
    fixSiderbar: bool(raw.fixSiderbar, d.fixSiderbar),
    colorWeak: bool(raw.colorWeak, d.colorWeak),
    multiTab: bool(raw.multiTab, d.multiTab),
  };
}

export function loadSettings(storage: Pick<Storage, "getItem"> | undefined): LayoutSettings {
  const raw = storage?.getItem(SETTINGS_STORAGE_KEY);
  if (!raw) return { ...DEFAULT_SETTINGS };
  try {
    return normalizeSettings(JSON.parse(raw));
  } catch {
    return { ...DEFAULT_SETTINGS };
  }
}

export function saveSettings(storage: Pick<Storage, "setItem"> | undefined, settings: LayoutSettings): void {
  storage?.setItem(SETTINGS_STORAGE_KEY, JSON.stringify(settings));
}

/**
 * Which menu an area shows. The spec fixes a top menu for the front area and a
 * side menu for the back area; the navigation-mode setting only has room in the
 * front area: "topmenu" (the default) keeps the spec's top menu there, and
 * "sidemenu" moves the front area's menu to the side as well. The back area is
 * always a side menu.
 */
export function effectiveLayout(area: Area, settings: Pick<LayoutSettings, "navMode">): "top" | "side" {
  if (area === "back") return "side";
  return settings.navMode === "sidemenu" ? "side" : "top";
}

/** The rules between options: Fluid only with a top menu, auto-hide only with a fixed header, fixed sidebar never with a top menu. */
export function applicableSettings(settings: LayoutSettings, layout: "top" | "side"): LayoutSettings {
  return {
    ...settings,
    contentWidth: layout === "top" ? settings.contentWidth : "Fixed",
    autoHideHeader: settings.fixedHeader && settings.autoHideHeader,
    fixSiderbar: layout === "side" && settings.fixSiderbar,
  };
}
