import { Drawer, Layout } from "antd";
import type { MenuItem } from "../../api/client";
import { SIDEBAR_WIDTH } from "../device";
import type { MenuTheme } from "../settings";
import { NavMenu } from "./nav-menu";

interface MobileMenuProps {
  open: boolean;
  onClose: () => void;
  items: MenuItem[];
  pathname: string;
  theme: MenuTheme;
}

/** A phone's menu (spec section 2, mobile): the full 256 px sidebar in a drawer from the left. */
export function MobileMenu({ open, onClose, items, pathname, theme }: MobileMenuProps) {
  return (
    <Drawer
      className="dams-menu-drawer"
      placement="left"
      open={open}
      onClose={onClose}
      closable={false}
      width={SIDEBAR_WIDTH}
      styles={{ body: { padding: 0 } }}
    >
      <Layout.Sider className="dams-sider" theme={theme} width={SIDEBAR_WIDTH} trigger={null}>
        <NavMenu items={items} pathname={pathname} mode="inline" theme={theme} onNavigate={onClose} />
      </Layout.Sider>
    </Drawer>
  );
}
