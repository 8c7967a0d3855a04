import type { ThemeConfig } from "antd";
import type { MenuTheme } from "./settings";

export const HEADER_HEIGHT = 56;
export const DARK_BG = "#001529";
const DARK_TEXT = "rgba(255,255,255,0.75)";

/**
 * antd component tokens for the layout's header and menus. "dark" darkens the
 * menu: the sidebar in a side layout, the whole header (where the menu is) in
 * a top layout. A side layout's header stays white.
 */
export function layoutTheme(theme: MenuTheme, layout: "top" | "side"): ThemeConfig {
  const darkHeader = layout === "top" && theme === "dark";
  return {
    components: {
      Layout: {
        headerHeight: HEADER_HEIGHT,
        headerPadding: "0 16px",
        headerBg: darkHeader ? DARK_BG : "#fff",
        siderBg: DARK_BG,
        lightSiderBg: "#fff",
        footerBg: "transparent",
      },
      Menu: {
        horizontalLineHeight: `${HEADER_HEIGHT}px`,
        itemBg: "transparent",
        horizontalItemSelectedBg: "rgba(0,0,0,0.04)",
        darkItemBg: DARK_BG,
        darkSubMenuItemBg: DARK_BG,
        darkPopupBg: DARK_BG,
        darkItemColor: DARK_TEXT,
        darkItemHoverColor: "#fff",
        darkItemHoverBg: "rgba(255,255,255,0.08)",
        // In the dark header the selected entry is a lighter patch; in the dark sidebar, the primary colour.
        ...(darkHeader ? { darkItemSelectedBg: "rgba(255,255,255,0.15)" } : {}),
      },
    },
  };
}
