import { LogoutOutlined, SettingOutlined, UserOutlined } from "@ant-design/icons";
import { App, Avatar, Dropdown, Space } from "antd";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { logout } from "../../auth/logout";
import { useCurrentUser } from "../../auth/session-context";

export function UserMenu() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const user = useCurrentUser();

  const confirmLogout = () =>
    modal.confirm({
      title: t("layout.logout.title"),
      content: t("layout.logout.content"),
      okText: t("layout.ok"),
      cancelText: t("layout.cancel"),
      onOk: async () => {
        try {
          await logout();
        } catch (error) {
          modal.error({ title: t("layout.logout.errorTitle"), content: error instanceof Error ? error.message : "" });
        }
      },
    });

  const items = [
    { key: "backend", icon: <SettingOutlined />, label: t("layout.user.openBackend") },
    ...(user?.admin ? [{ key: "settings", icon: <SettingOutlined />, label: t("layout.user.settings") }] : []),
    { type: "divider" as const },
    { key: "logout", icon: <LogoutOutlined />, label: t("layout.user.logout") },
  ];

  return (
    <Dropdown
      menu={{
        items,
        onClick: ({ key }) => {
          if (key === "backend") navigate("/backend");
          else if (key === "settings") navigate("/manage/setting");
          else if (key === "logout") confirmLogout();
        },
      }}
    >
      <Space style={{ cursor: "pointer", paddingInline: 8 }} data-testid="user-menu">
        <Avatar size="small" src={user?.avatar || undefined} icon={<UserOutlined />} />
        <span data-testid="user-name">{user?.name || user?.username || t("layout.user.guest")}</span>
      </Space>
    </Dropdown>
  );
}
