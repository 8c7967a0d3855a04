import { CheckOutlined, SettingOutlined } from "@ant-design/icons";
import { Button, Divider, Drawer, List, Radio, Select, Switch, Tooltip } from "antd";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { useFeedback } from "../../components/feedback";
import { PRIMARY_COLORS } from "../settings";
import { useSettings } from "../settings-context";

function Row({ label, children }: { label: string; children: ReactNode }) {
  return <List.Item extra={children}>{label}</List.Item>;
}

/**
 * The layout settings drawer (spec section 2). Rendered only where
 * `settingsDrawerEnabled` allows: development builds, or `?settings=1`.
 * `layout` is the menu position of the current area, which decides which
 * options apply (Fluid width only with a top menu, fixed sidebar never).
 */
export function SettingsDrawer({ layout }: { layout: "top" | "side" }) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const { settings, update } = useSettings();
  const [open, setOpen] = useState(false);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(JSON.stringify(settings, null, 2));
      void message.success(t("settings.copied"));
    } catch {
      void message.error(t("settings.copyFailed"));
    }
  };

  return (
    <>
      <Button
        className="dams-settings-toggle"
        type="primary"
        shape="circle"
        icon={<SettingOutlined />}
        aria-label={t("settings.open")}
        data-testid="settings-toggle"
        onClick={() => setOpen(true)}
      />
      <Drawer title={t("settings.title")} open={open} onClose={() => setOpen(false)} width={320}>
        <List split={false} size="small">
          <Row label={t("settings.menuTheme")}>
            <Radio.Group
              value={settings.menuTheme}
              onChange={(event) => update({ menuTheme: event.target.value })}
              options={[
                { value: "dark", label: t("settings.menuTheme.dark") },
                { value: "light", label: t("settings.menuTheme.light") },
              ]}
            />
          </Row>
        </List>
        <Divider plain>{t("settings.primaryColor")}</Divider>
        <div style={{ display: "flex", gap: 8, flexWrap: "wrap" }}>
          {PRIMARY_COLORS.map((preset) => (
            <Tooltip key={preset.key} title={t(`settings.color.${preset.key}`)}>
              <button
                type="button"
                aria-label={t(`settings.color.${preset.key}`)}
                onClick={() => update({ primaryColor: preset.color })}
                style={{
                  width: 24,
                  height: 24,
                  borderRadius: 4,
                  border: 0,
                  cursor: "pointer",
                  background: preset.color,
                  color: "#fff",
                }}
              >
                {settings.primaryColor === preset.color ? <CheckOutlined /> : null}
              </button>
            </Tooltip>
          ))}
        </div>
        <Divider />
        <List split={false} size="small">
          <Row label={t("settings.navMode")}>
            <Select
              size="small"
              style={{ width: 110 }}
              value={settings.navMode}
              onChange={(navMode) => update({ navMode })}
              options={[
                { value: "sidemenu", label: t("settings.navMode.sidemenu") },
                { value: "topmenu", label: t("settings.navMode.topmenu") },
              ]}
            />
          </Row>
          <Row label={t("settings.contentWidth")}>
            <Select
              size="small"
              style={{ width: 110 }}
              value={layout === "top" ? settings.contentWidth : "Fixed"}
              onChange={(contentWidth) => update({ contentWidth })}
              options={[
                { value: "Fixed", label: t("settings.contentWidth.Fixed") },
                { value: "Fluid", label: t("settings.contentWidth.Fluid"), disabled: layout !== "top" },
              ]}
            />
          </Row>
          <Row label={t("settings.fixedHeader")}>
            <Switch size="small" checked={settings.fixedHeader} onChange={(fixedHeader) => update({ fixedHeader })} />
          </Row>
          <Row label={t("settings.autoHideHeader")}>
            <Switch
              size="small"
              disabled={!settings.fixedHeader}
              checked={settings.fixedHeader && settings.autoHideHeader}
              onChange={(autoHideHeader) => update({ autoHideHeader })}
            />
          </Row>
          <Row label={t("settings.fixSiderbar")}>
            <Switch
              size="small"
              disabled={layout === "top"}
              checked={layout === "side" && settings.fixSiderbar}
              onChange={(fixSiderbar) => update({ fixSiderbar })}
            />
          </Row>
          <Row label={t("settings.colorWeak")}>
            <Switch size="small" checked={settings.colorWeak} onChange={(colorWeak) => update({ colorWeak })} />
          </Row>
          <Row label={t("settings.multiTab")}>
            <Switch size="small" checked={settings.multiTab} onChange={(multiTab) => update({ multiTab })} />
          </Row>
        </List>
        <Divider />
        <Button block onClick={() => void copy()} data-testid="settings-copy">
          {t("settings.copy")}
        </Button>
      </Drawer>
    </>
  );
}
