import type { ProLayoutProps } from "@ant-design/pro-components";
import type { MenuTheme } from "./settings";

const DARK_BG = "#001529";
const DARK_TEXT = "rgba(255,255,255,0.75)";

/**
 * ProLayout tokens for the menu theme. "dark" darkens the menu: the sider in
 * a side layout, the whole header (where the menu is) in a top layout.
 */
export function menuThemeToken(theme: MenuTheme, layout: "top" | "side", primary: string): ProLayoutProps["token"] {
  if (theme === "light") return { header: { colorBgMenuItemSelected: "rgba(0,0,0,0.04)" } };
  const menuColors = {
    colorTextMenu: DARK_TEXT,
    colorTextMenuSecondary: DARK_TEXT,
    colorTextMenuSelected: "#fff",
    colorTextMenuActive: "#fff",
    colorBgMenuItemSelected: layout === "top" ? "rgba(255,255,255,0.15)" : primary,
    colorBgMenuItemHover: "rgba(255,255,255,0.08)",
  };
  return {
    sider: {
      ...menuColors,
      colorMenuBackground: DARK_BG,
      colorTextMenuTitle: "#fff",
      colorTextMenuItemHover: "#fff",
      colorTextSubMenuSelected: "#fff",
      colorBgMenuItemCollapsedElevated: DARK_BG,
      colorTextCollapsedButton: DARK_TEXT,
      colorTextCollapsedButtonHover: "#fff",
    },
    header:
      layout === "top"
        ? {
            ...menuColors,
            colorBgHeader: DARK_BG,
            colorBgScrollHeader: DARK_BG,
            colorHeaderTitle: "#fff",
            colorBgMenuElevated: DARK_BG,
            colorTextRightActionsItem: DARK_TEXT,
            colorBgRightActionsItemHover: "rgba(255,255,255,0.08)",
          }
        : undefined,
  };
}
