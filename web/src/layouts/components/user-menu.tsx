import { HomeOutlined, LogoutOutlined, SettingOutlined, UserOutlined } from "@ant-design/icons";
import { Avatar, Dropdown, Space } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import type { MenuItem } from "../../api/client";
import { useCurrentUser } from "../../auth/session-context";
import { LazyPart, lazyChunk } from "../../components/lazy-part";
import { useMenuQuery } from "../../router/menus";
import type { Area } from "../settings";

const LogoutConfirm = lazyChunk("logout-confirm", () => import("./logout-confirm").then((m) => m.LogoutConfirm));

/** The first page of a menu the user may open (the back area's landing page when they hold it). */
export function firstPage(menus: readonly MenuItem[]): string | null {
  const pages = (items: readonly MenuItem[]): MenuItem[] =>
    items.flatMap((item) => (item.children.length > 0 ? pages(item.children) : item.component ? [item] : []));
  const all = pages(menus);
  return (
    (all.find((item) => item.path === "/backend/monitor/storage") ?? all.find((item) => !item.hidden))?.path ?? null
  );
}

/**
 * The user's menu. In the front area, 打开后台 shows only to those whose role
 * opens some page of the back area (its menu is not empty) and leads to the
 * first of them; in the back area, 返回前台 leads back.
 */
export function UserMenu({ area = "front" }: { area?: Area }) {
  const { t } = useTranslation();
  const [logoutRequest, setLogoutRequest] = useState(0);
  const navigate = useNavigate();
  const user = useCurrentUser();
  const backMenus = useMenuQuery("admin");
  const backPage = area === "front" ? firstPage(backMenus.data ?? []) : null;

  const items = [
    ...(area === "back"
      ? [{ key: "frontend", icon: <HomeOutlined />, label: t("layout.user.openFrontend") }]
      : backPage
        ? [{ key: "backend", icon: <SettingOutlined />, label: t("layout.user.openBackend") }]
        : []),
    ...(user?.admin ? [{ key: "settings", icon: <SettingOutlined />, label: t("layout.user.settings") }] : []),
    { type: "divider" as const },
    { key: "logout", icon: <LogoutOutlined />, label: t("layout.user.logout") },
  ];

  return (
    <>
      <Dropdown
        menu={{
          items,
          onClick: ({ key }) => {
            if (key === "backend") navigate(backPage ?? "/backend");
            else if (key === "frontend") navigate("/frontend");
            else if (key === "settings") navigate("/manage/setting");
            else if (key === "logout") setLogoutRequest((count) => count + 1);
          },
        }}
      >
        <Space style={{ cursor: "pointer", paddingInline: 8 }} data-testid="user-menu">
          <Avatar size="small" src={user?.avatar || undefined} icon={<UserOutlined />} />
          <span data-testid="user-name">{user?.name || user?.username || t("layout.user.guest")}</span>
        </Space>
      </Dropdown>
      {logoutRequest > 0 ? (
        <LazyPart>
          <LogoutConfirm request={logoutRequest} />
        </LazyPart>
      ) : null}
    </>
  );
}
