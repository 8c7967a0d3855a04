import { DownOutlined } from "@ant-design/icons";
import { Button, Dropdown, type MenuProps, Tabs } from "antd";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { useFeedback } from "../../components/feedback";
import { loadTabs, reduceTabs, saveTabs, type TabsAction, type TabsState, tabDetail } from "../tabs";

interface TabBarProps {
  area: string;
  home: string;
  currentKey: string;
  currentTitleKey: string | undefined;
}

/** The multi-tab bar: a tab per visited route, with close this/right/left/all on each tab. */
export function TabBar({ area, home, currentKey, currentTitleKey }: TabBarProps) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const navigate = useNavigate();
  const [state, setState] = useState<TabsState>(() => loadTabs(area, sessionStorage));
  const stateRef = useRef(state);

  const dispatch = useCallback(
    (action: TabsAction) => {
      const { state: next, effect } = reduceTabs(stateRef.current, action);
      stateRef.current = next;
      setState(next);
      saveTabs(area, next, sessionStorage);
      if (effect.message) void message.info(t(effect.message));
      if (effect.navigate) navigate(effect.navigate);
    },
    [area, message, navigate, t],
  );

  useEffect(() => {
    if (currentTitleKey) dispatch({ type: "open", tab: { key: currentKey, title: currentTitleKey } });
  }, [currentKey, currentTitleKey, dispatch]);

  const menuFor = (key: string): MenuProps => ({
    items: [
      { key: "close", label: t("layout.tabs.close") },
      { key: "closeRight", label: t("layout.tabs.closeRight") },
      { key: "closeLeft", label: t("layout.tabs.closeLeft") },
      { key: "closeAll", label: t("layout.tabs.closeAll") },
    ],
    onClick: ({ key: command, domEvent }) => {
      domEvent.stopPropagation();
      if (command === "close") dispatch({ type: "close", key, home });
      else if (command === "closeRight") dispatch({ type: "closeRight", key });
      else if (command === "closeLeft") dispatch({ type: "closeLeft", key });
      else dispatch({ type: "closeAll", home });
    },
  });

  return (
    <Tabs
      className="dams-tab-bar"
      type="editable-card"
      hideAdd
      size="small"
      // rc-tabs labels each close button "remove" unless told otherwise.
      locale={{ removeAriaLabel: t("layout.tabs.close"), dropdownAriaLabel: t("layout.tabs.more") }}
      activeKey={state.activeKey ?? undefined}
      onChange={(key) => navigate(key)}
      onEdit={(key, action) => {
        if (action === "remove" && typeof key === "string") dispatch({ type: "close", key, home });
      }}
      tabBarExtraContent={
        state.activeKey ? (
          <Dropdown menu={menuFor(state.activeKey)} trigger={["click"]}>
            <Button type="text" size="small" icon={<DownOutlined />} data-testid="tab-actions" />
          </Dropdown>
        ) : null
      }
      items={state.tabs.map((tab) => ({
        key: tab.key,
        closable: true,
        label: (
          <Dropdown menu={menuFor(tab.key)} trigger={["contextMenu"]}>
            <span>{tabDetail(tab.key) ? `${t(tab.title)}: ${tabDetail(tab.key)}` : t(tab.title)}</span>
          </Dropdown>
        ),
      }))}
    />
  );
}
