import { useMemo } from "react";
import { Navigate, type RouteObject, useLocation, useRoutes } from "react-router-dom";
import type { MenuItem } from "../api/client";
import { PageLoading } from "../components/page-loading";
import { AreaLayout } from "../layouts/area-layout";
import { BlankLayout } from "../layouts/blank-layout";
import { UserLayout } from "../layouts/user-layout";
import { errorPageFor, FIXED_PATHS, flattenMenu } from "./menu-routes";
import { errorStatus, useMenuQuery } from "./menus";
import { lazyPage } from "./page-modules";

function Page({ component }: { component: string }) {
  const Component = lazyPage(component);
  return Component ? <Component /> : <Navigate to="/404" replace />;
}

const redirect = (path: string, to: string): RouteObject => ({ path, element: <Navigate to={to} replace /> });

/** A fixed page outside the areas, with its own document title. */
const blank = (path: string, component: string, titleKey: string): RouteObject => ({
  element: <BlankLayout titleKey={titleKey} />,
  children: [{ path, element: <Page component={component} /> }],
});

const userPage = (path: string, component: string, titleKey: string): RouteObject => ({
  element: <UserLayout titleKey={titleKey} />,
  children: [{ path, element: <Page component={component} /> }],
});

/** The pages other systems open (pickers, editors, the network disk), at /source/<name>; their modules are kebab-case. */
const SOURCE_PAGES = ["ismpsource", "editimg", "editphoto", "ismpupload", "ismpVideosEdit", "ismpnetdisk"];
const kebabCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
/** The error pages, at /<status>. */
const EXCEPTION_PAGES = ["403", "404", "500"];

/** Spec section 2, "Fixed routes". */
const fixedRoutes: RouteObject[] = [
  redirect("/", "/frontend/search"),
  redirect("/frontend", "/frontend/search"),
  redirect("/backend", "/backend/monitor/storage"),
  redirect("/user", "/user/login"),
  userPage("/user/login", "user/login", "route.user.login"),
  userPage("/user/register", "user/register", "route.user.register"),
  userPage("/user/register-result", "user/register-result", "route.user.registerResult"),
  redirect("/share", "/share/storyPreview"),
  blank("/share/storyPreview", "share/story-preview", "route.share.storyPreview"),
  ...SOURCE_PAGES.map((name) => blank(`/source/${name}`, `source/${kebabCase(name)}`, `route.source.${name}`)),
  redirect("/test", "/test/home"),
  blank("/test/home", "test/home", "route.test.home"),
  blank("/redirect", "redirect", "route.redirect"),
  blank("/redirect/*", "redirect", "route.redirect"),
  ...EXCEPTION_PAGES.map((status) => blank(`/${status}`, `exception/${status}`, `route.exception.${status}`)),
];

/** Routes for a menu tree: pages for items with a component, redirects for groups. */
export function menuRoutes(items: MenuItem[], skip: Set<string>): { pages: RouteObject[]; redirects: RouteObject[] } {
  const pages: RouteObject[] = [];
  const redirects: RouteObject[] = [];
  for (const { item } of flattenMenu(items)) {
    if (FIXED_PATHS.has(item.path) || skip.has(item.path)) continue;
    if (item.component) pages.push({ path: item.path, element: <Page component={item.component} /> });
    else if (item.redirect) redirects.push(redirect(item.path, item.redirect));
  }
  return { pages, redirects };
}

/** The back area's paths: without any back-area menu item they answer 403, not 404. */
const BACK_AREA = /^\/(backend|manage)(\/|$)/;

/** Unmatched paths wait for both menus; then 404 (403 in a back area the role cannot see), or the error page of a failed menu load. */
function Unmatched() {
  const location = useLocation();
  const user = useMenuQuery("user");
  const admin = useMenuQuery("admin");
  if (user.isPending || admin.isPending) return <PageLoading />;
  const failed = user.isError ? user.error : admin.isError ? admin.error : null;
  if (failed) return <Navigate to={errorPageFor(errorStatus(failed))} replace />;
  const noBackArea = admin.data?.length === 0 && BACK_AREA.test(location.pathname);
  return <Navigate to={noBackArea ? "/403" : "/404"} replace />;
}

export function buildRoutes(userMenu: MenuItem[], adminMenu: MenuItem[]): RouteObject[] {
  const frontFixed = new Set(["/frontend/search"]);
  const front = menuRoutes(userMenu, frontFixed);
  const back = menuRoutes(adminMenu, new Set());
  return [
    ...fixedRoutes,
    ...front.redirects,
    ...back.redirects,
    {
      element: <AreaLayout area="front" />,
      children: [
        { path: "/frontend/search", element: <Page component="frontend/search" /> },
        { path: "/frontend/:library/:folderId?", element: <Page component="frontend/library" /> },
        ...front.pages,
      ],
    },
    { element: <AreaLayout area="back" />, children: back.pages },
    { path: "*", element: <Unmatched /> },
  ];
}

export function AppRoutes() {
  const user = useMenuQuery("user");
  const admin = useMenuQuery("admin");
  const routes = useMemo(() => buildRoutes(user.data ?? [], admin.data ?? []), [user.data, admin.data]);
  return useRoutes(routes);
}
