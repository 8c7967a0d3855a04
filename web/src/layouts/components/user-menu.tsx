import { LogoutOutlined, SettingOutlined, UserOutlined } from "@ant-design/icons";
import { Avatar, Dropdown, Space } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { useCurrentUser } from "../../auth/session-context";
import { LazyPart, lazyChunk } from "../../components/lazy-part";

const LogoutConfirm = lazyChunk("logout-confirm", () => import("./logout-confirm").then((m) => m.LogoutConfirm));

export function UserMenu() {
  const { t } = useTranslation();
  const [logoutRequest, setLogoutRequest] = useState(0);
  const navigate = useNavigate();
  const user = useCurrentUser();

  const items = [
    { key: "backend", icon: <SettingOutlined />, label: t("layout.user.openBackend") },
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
            if (key === "backend") navigate("/backend");
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
