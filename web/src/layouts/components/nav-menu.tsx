import { Menu, type MenuProps } from "antd";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import type { MenuItem } from "../../api/client";
import { menuIcon } from "../../components/menu-icon";
import { menuKeysFor, visibleMenu } from "../nav-menu";
import type { MenuTheme } from "../settings";

type Entries = NonNullable<MenuProps["items"]>;

function toEntries(items: MenuItem[], translate: (key: string) => string, onNavigate?: () => void): Entries {
  return items.map((item) =>
    item.children.length
      ? {
          key: item.path,
          icon: menuIcon(item.icon),
          label: translate(item.title),
          children: toEntries(item.children, translate, onNavigate),
        }
      : {
          key: item.path,
          icon: menuIcon(item.icon),
          label: (
            <Link to={item.path} onClick={onNavigate}>
              {translate(item.title)}
            </Link>
          ),
        },
  );
}

interface NavMenuProps {
  items: MenuItem[];
  pathname: string;
  mode: "horizontal" | "inline";
  theme: MenuTheme;
  /** The sidebar is collapsed: antd closes the groups then; expanding opens the current page's again. */
  collapsed?: boolean;
  /** Called when an entry is followed (the phone's drawer closes). */
  onNavigate?: () => void;
}

/**
 * An area's menu from the server's menu tree: a top menu in the header or an
 * inline menu in the sidebar. The current page's entry is highlighted and, in
 * an inline menu, the groups leading to it are opened (others stay as the
 * user left them).
 */
export function NavMenu({ items, pathname, mode, theme, collapsed = false, onNavigate }: NavMenuProps) {
  const { t } = useTranslation();
  const entries = useMemo(() => toEntries(visibleMenu(items), t, onNavigate), [items, t, onNavigate]);
  const keys = useMemo(() => menuKeysFor(pathname, items), [pathname, items]);
  const [openKeys, setOpenKeys] = useState<string[]>(collapsed ? [] : keys.open);
  useEffect(() => {
    if (!collapsed) setOpenKeys((current) => [...new Set([...current, ...keys.open])]);
  }, [keys.open, collapsed]);
  return (
    <Menu
      className={`dams-nav-menu dams-nav-menu-${mode}`}
      mode={mode}
      theme={theme}
      items={entries}
      selectedKeys={keys.selected}
      {...(mode === "inline" ? { openKeys, onOpenChange: setOpenKeys } : {})}
    />
  );
}
