import { CopyrightOutlined, MenuFoldOutlined, MenuOutlined, MenuUnfoldOutlined } from "@ant-design/icons";
import { Breadcrumb, Button, ConfigProvider, Layout } from "antd";
import { Suspense, useCallback, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, Navigate, Outlet, useLocation } from "react-router-dom";
import type { MenuArea } from "../api/client";
import { ChunkErrorBoundary } from "../components/chunk-error-boundary";
import { LazyPart, lazyChunk, useOpenedOnce } from "../components/lazy-part";
import { PageLoading } from "../components/page-loading";
import { settingsDrawerEnabled } from "../config";
import { errorPageFor, resolveRouteMeta } from "../router/menu-routes";
import { errorStatus, useMenuQuery } from "../router/menus";
import { HeaderActions } from "./components/header-actions";
import { HeaderLogo } from "./components/header-logo";
import { NavMenu } from "./components/nav-menu";
import { TabBar } from "./components/tab-bar";
import { SIDEBAR_COLLAPSED_WIDTH, SIDEBAR_WIDTH, sidebarCollapsed } from "./device";
import { layoutTheme } from "./menu-theme";
import { type Area, AUTO_HIDE_HEADER_THRESHOLD, applicableSettings, effectiveLayout } from "./settings";
import { useSettings } from "./settings-context";
import { tabKeyOf } from "./tabs";
import { useDeviceClass } from "./use-device-class";
import { useDocumentTitle } from "./use-document-title";

// Only in development or with ?settings=1: not part of the pages' initial load.
const SettingsDrawer = lazyChunk("settings-drawer", () =>
  import("./components/settings-drawer").then((m) => m.SettingsDrawer),
);
// Only on phones, once the menu button is pressed.
const MobileMenu = lazyChunk("mobile-menu", () => import("./components/mobile-menu").then((m) => m.MobileMenu));

const AREA_MENU: Record<Area, MenuArea> = { front: "user", back: "admin" };
export const AREA_HOME: Record<Area, string> = { front: "/frontend", back: "/backend" };

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
 * the back area (admin menu, side navigation). Our own, on antd's Layout and
 * Menu (docs/decisions.md: ProLayout weighed on every page's first load).
 *
 * Top layout: logo, menu and actions in the header. Side layout: logo and
 * actions in a header across the page, the menu in a sidebar under it
 * (256 px, 80 px collapsed). On a phone the menu moves into a drawer behind a
 * button in the header.
 */
export function AreaLayout({ area }: { area: Area }) {
  const { t } = useTranslation();
  const location = useLocation();
  const menus = useMenuQuery(AREA_MENU[area]);
  const { settings: stored } = useSettings();
  const device = useDeviceClass();
  const layout = effectiveLayout(area, stored);
  const settings = applicableSettings(stored, layout);
  const [collapsed, setCollapsed] = useState(() => sidebarCollapsed(device));
  useEffect(() => setCollapsed(sidebarCollapsed(device)), [device]);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const drawerOpened = useOpenedOnce(drawerOpen);
  const closeDrawer = useCallback(() => setDrawerOpen(false), []);
  useEffect(() => {
    if (device !== "mobile") setDrawerOpen(false);
  }, [device]);
  const headerHidden = useHeaderHidden(settings.autoHideHeader);

  const menuItems = menus.data ?? [];
  const meta = useMemo(() => resolveRouteMeta(location.pathname, menuItems), [location.pathname, menuItems]);
  useDocumentTitle(meta.titleKey);
  const theme = useMemo(() => layoutTheme(settings.menuTheme, layout), [settings.menuTheme, layout]);

  useEffect(() => {
    document.body.style.filter = settings.colorWeak ? "invert(80%)" : "";
  }, [settings.colorWeak]);

  if (menus.isError) return <Navigate to={errorPageFor(errorStatus(menus.error))} replace />;
  if (menus.isPending) return <PageLoading />;

  const mobile = device === "mobile";
  const compact = device !== "desktop";
  const darkHeader = layout === "top" && settings.menuTheme === "dark";
  const fixedWidth = layout === "top" && settings.contentWidth === "Fixed";
  // A side layout's header is always fixed: the sidebar starts under it.
  const fixedHeader = layout === "side" || settings.fixedHeader;
  const showSider = layout === "side" && !mobile;
  const tabKey = tabKeyOf(location.pathname, location.search);
  const width = fixedWidth ? " dams-fixed-width" : "";

  return (
    <ConfigProvider theme={theme}>
      {/* hasSider: the phone drawer's sidebar must not turn this column into a row. */}
      <Layout hasSider={false} className={`dams-layout dams-layout-${area} dams-layout-${layout}`}>
        <Layout.Header
          className={[
            "dams-header",
            darkHeader ? "dams-header-dark" : "",
            fixedHeader ? "dams-header-fixed" : "",
            headerHidden ? "dams-header-hidden" : "",
          ].join(" ")}
        >
          <div className={`dams-header-inner${width}`}>
            {mobile ? (
              <Button
                type="text"
                className="dams-menu-toggle"
                style={{ color: "inherit" }}
                icon={<MenuOutlined />}
                aria-label={t("layout.menu.open")}
                onClick={() => setDrawerOpen(true)}
              />
            ) : null}
            {mobile ? null : <HeaderLogo area={area} compact={compact} onDark={darkHeader} />}
            <div className="dams-header-menu">
              {layout === "top" && !mobile ? (
                <NavMenu items={menuItems} pathname={location.pathname} mode="horizontal" theme={settings.menuTheme} />
              ) : null}
            </div>
            <HeaderActions area={area} compact={compact} onDark={darkHeader} />
          </div>
        </Layout.Header>
        <Layout hasSider={showSider}>
          {showSider ? (
            <Layout.Sider
              className={`dams-sider${settings.fixSiderbar ? " dams-sider-fixed" : ""}`}
              theme={settings.menuTheme}
              width={SIDEBAR_WIDTH}
              collapsedWidth={SIDEBAR_COLLAPSED_WIDTH}
              collapsed={collapsed}
              trigger={null}
            >
              <div className="dams-sider-body">
                <NavMenu
                  items={menuItems}
                  pathname={location.pathname}
                  mode="inline"
                  theme={settings.menuTheme}
                  collapsed={collapsed}
                />
                <Button
                  type="text"
                  block
                  className="dams-sider-toggle"
                  icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
                  aria-label={t(collapsed ? "layout.sidebar.expand" : "layout.sidebar.collapse")}
                  onClick={() => setCollapsed(!collapsed)}
                />
              </div>
            </Layout.Sider>
          ) : null}
          <Layout>
            <Layout.Content className="dams-content">
              {settings.multiTab ? (
                <TabBar area={area} home={AREA_HOME[area]} currentKey={tabKey} currentTitleKey={meta.titleKey} />
              ) : null}
              <div className={`dams-page${width}`}>
                <div className="dams-page-header">
                  {meta.trail.length ? (
                    <Breadcrumb
                      items={meta.trail.map((step, index) => ({
                        title:
                          index < meta.trail.length - 1 ? (
                            <Link to={step.path}>{t(step.titleKey)}</Link>
                          ) : (
                            t(step.titleKey)
                          ),
                      }))}
                    />
                  ) : null}
                  {meta.titleKey ? <h1 className="dams-page-title">{t(meta.titleKey)}</h1> : null}
                </div>
                <ChunkErrorBoundary resetKey={location.pathname}>
                  <Suspense fallback={<PageLoading />}>
                    <Outlet />
                  </Suspense>
                </ChunkErrorBoundary>
              </div>
            </Layout.Content>
            <Layout.Footer className="dams-footer">
              <CopyrightOutlined /> {t("app.footer")}
            </Layout.Footer>
          </Layout>
        </Layout>
        {mobile && drawerOpened ? (
          <LazyPart>
            <MobileMenu
              open={drawerOpen}
              onClose={closeDrawer}
              items={menuItems}
              pathname={location.pathname}
              theme={settings.menuTheme}
            />
          </LazyPart>
        ) : null}
        {settingsDrawerEnabled(location.search) ? (
          <LazyPart>
            <SettingsDrawer layout={layout} />
          </LazyPart>
        ) : null}
      </Layout>
    </ConfigProvider>
  );
}
