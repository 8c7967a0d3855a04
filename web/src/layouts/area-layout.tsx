import { MenuFoldOutlined, MenuUnfoldOutlined } from "@ant-design/icons";
import { DefaultFooter, PageContainer, ProLayout } from "@ant-design/pro-components";
import { Button } from "antd";
import { Suspense, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, Navigate, Outlet, useLocation } from "react-router-dom";
import type { MenuArea, MenuItem } from "../api/client";
import { ChunkErrorBoundary } from "../components/chunk-error-boundary";
import { LazyPart, lazyChunk } from "../components/lazy-part";
import { menuIcon } from "../components/menu-icon";
import { PageLoading } from "../components/page-loading";
import { settingsDrawerEnabled } from "../config";
import { errorPageFor, resolveRouteMeta } from "../router/menu-routes";
import { errorStatus, useMenuQuery } from "../router/menus";
import { HeaderActions } from "./components/header-actions";
import { HeaderLogo } from "./components/header-logo";
import { TabBar } from "./components/tab-bar";
import { SIDEBAR_WIDTH, sidebarCollapsed } from "./device";
import { menuThemeToken } from "./menu-theme";
import { type Area, AUTO_HIDE_HEADER_THRESHOLD, applicableSettings, effectiveLayout } from "./settings";
import { useSettings } from "./settings-context";
import { tabKeyOf } from "./tabs";
import { useDeviceClass } from "./use-device-class";
import { useDocumentTitle } from "./use-document-title";

// Only in development or with ?settings=1: not part of the pages' initial load.
const SettingsDrawer = lazyChunk("settings-drawer", () =>
  import("./components/settings-drawer").then((m) => m.SettingsDrawer),
);

const AREA_MENU: Record<Area, MenuArea> = { front: "user", back: "admin" };
export const AREA_HOME: Record<Area, string> = { front: "/frontend", back: "/backend" };

interface ProRoute {
  path: string;
  name: string;
  icon?: React.ReactNode;
  hideInMenu?: boolean;
  children?: ProRoute[];
}

function toProRoutes(items: MenuItem[], translate: (key: string) => string): ProRoute[] {
  return items.map((item) => ({
    path: item.path,
    name: translate(item.title),
    icon: menuIcon(item.icon),
    hideInMenu: item.hidden,
    children: item.children.length ? toProRoutes(item.children, translate) : undefined,
  }));
}

/** Hides the fixed header while scrolling down past the threshold (spec section 9). */
function useHeaderHidden(enabled: boolean): boolean {
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    if (!enabled) {
      setHidden(false);
      return;
    }
    let last = window.scrollY;
    const onScroll = () => {
      const y = window.scrollY;
      setHidden(y > AUTO_HIDE_HEADER_THRESHOLD && y > last);
      last = y;
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, [enabled]);
  return hidden;
}

/**
 * The layout of the two areas: the front area (user menu, top navigation) and
 * the back area (admin menu, side navigation).
 */
export function AreaLayout({ area }: { area: Area }) {
  const { t } = useTranslation();
  const location = useLocation();
  const menus = useMenuQuery(AREA_MENU[area]);
  const { settings: stored } = useSettings();
  const device = useDeviceClass();
  const layout = effectiveLayout(area, stored);
  const settings = applicableSettings(stored, layout);
  const [collapsed, setCollapsed] = useState(() => device === "mobile" || sidebarCollapsed(device));
  useEffect(() => setCollapsed(device === "mobile" || sidebarCollapsed(device)), [device]);
  const headerHidden = useHeaderHidden(settings.autoHideHeader);

  const menuItems = menus.data ?? [];
  const meta = useMemo(() => resolveRouteMeta(location.pathname, menuItems), [location.pathname, menuItems]);
  const documentTitle = useDocumentTitle(meta.titleKey);
  const proRoutes = useMemo(() => toProRoutes(menuItems, t), [menuItems, t]);

  useEffect(() => {
    document.body.style.filter = settings.colorWeak ? "invert(80%)" : "";
  }, [settings.colorWeak]);

  if (menus.isError) return <Navigate to={errorPageFor(errorStatus(menus.error))} replace />;
  if (menus.isPending) return <PageLoading />;

  const compact = device !== "desktop";
  const darkHeader = layout === "top" && settings.menuTheme === "dark";
  const tabKey = tabKeyOf(location.pathname, location.search);

  return (
    <ProLayout
      className={`dams-layout dams-layout-${area}`}
      // ProLayout's "side" layout has no header; "mix" is its side menu under a header.
      layout={layout === "side" ? "mix" : "top"}
      navTheme="light"
      token={menuThemeToken(settings.menuTheme, layout, settings.primaryColor)}
      contentWidth={settings.contentWidth}
      fixedHeader={settings.fixedHeader}
      fixSiderbar={settings.fixSiderbar}
      siderWidth={SIDEBAR_WIDTH}
      collapsed={collapsed}
      onCollapse={setCollapsed}
      breakpoint={false}
      disableMobile={device !== "mobile"}
      // ProLayout writes document.title itself whenever its own inputs change
      // (after ours on a redirect); hand it the same '{route} - {platform}' title.
      pageTitleRender={() => documentTitle}
      title={t("app.title")}
      logo={false}
      route={{ path: "/", children: proRoutes }}
      location={{ pathname: location.pathname }}
      menu={{ locale: false }}
      headerTitleRender={() => <HeaderLogo area={area} compact={compact} onDark={darkHeader} />}
      menuHeaderRender={layout === "side" ? false : undefined}
      collapsedButtonRender={false}
      menuFooterRender={(props) =>
        props?.isMobile ? null : (
          <Button
            type="text"
            block
            style={{ color: "inherit" }}
            icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
            aria-label={t(collapsed ? "layout.sidebar.expand" : "layout.sidebar.collapse")}
            onClick={() => setCollapsed(!collapsed)}
          />
        )
      }
      menuItemRender={(item, dom) => (item.path ? <Link to={item.path}>{dom}</Link> : dom)}
      actionsRender={() => [<HeaderActions key="actions" area={area} compact={compact} onDark={darkHeader} />]}
      headerRender={headerHidden ? false : undefined}
      footerRender={() => <DefaultFooter copyright={t("app.footer")} links={[]} />}
    >
      {settings.multiTab ? (
        <TabBar area={area} home={AREA_HOME[area]} currentKey={tabKey} currentTitleKey={meta.titleKey} />
      ) : null}
      <PageContainer
        title={meta.titleKey ? t(meta.titleKey) : undefined}
        breadcrumb={{
          items: meta.trail.map((step, index) => ({
            title: index < meta.trail.length - 1 ? <Link to={step.path}>{t(step.titleKey)}</Link> : t(step.titleKey),
          })),
        }}
      >
        <ChunkErrorBoundary resetKey={location.pathname}>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </ChunkErrorBoundary>
      </PageContainer>
      {settingsDrawerEnabled(location.search) ? (
        <LazyPart>
          <SettingsDrawer layout={layout} />
        </LazyPart>
      ) : null}
    </ProLayout>
  );
}
