import type { PermissionKey } from "../auth/permissions.js";

/**
 * The built-in menus: every page spec section 2 names, for the front area
 * ("user" menu, top navigation) and the back area ("admin" menu, side navigation).
 *
 * `key` is the route key; it is also the permissionId that roles grant and the
 * i18n key of the title in the web app (`menu.<key>`). `component` names the
 * page module under web/src/pages/ that renders the route; group items without
 * a component only hold children and redirect to their first page.
 */
export interface MenuSeedItem {
  key: PermissionKey;
  path: string;
  icon?: string;
  component?: string;
  redirect?: string;
  hidden?: boolean;
  children?: MenuSeedItem[];
}

export type MenuArea = "user" | "admin";

function page(key: PermissionKey, path: string, component: string, icon?: string): MenuSeedItem {
  return { key, path, component, icon };
}

function group(key: PermissionKey, path: string, icon: string, children: MenuSeedItem[]): MenuSeedItem {
  return { key, path, icon, redirect: children[0]?.path, children };
}

export const userMenuSeed: MenuSeedItem[] = [
  page("search", "/frontend/search", "frontend/search", "SearchOutlined"),
  group("upload", "/upload", "CloudUploadOutlined", [
    page("upload.image", "/upload/image", "upload/image", "PictureOutlined"),
    page("upload.video", "/upload/video", "upload/video", "VideoCameraOutlined"),
    page("upload.audio", "/upload/audio", "upload/audio", "AudioOutlined"),
    page("upload.favorite", "/upload/favorite", "upload/favorite", "StarOutlined"),
    page("upload.download", "/upload/download", "upload/download", "DownloadOutlined"),
    page("upload.my", "/upload/my", "upload/my", "UserOutlined"),
  ]),
  group("story", "/story", "FileImageOutlined", [
    page("story.list", "/story/list", "story/list", "UnorderedListOutlined"),
  ]),
  group("halfproduct", "/halfproduct", "ExperimentOutlined", [
    page("halfproduct.list", "/halfproduct/list", "halfproduct/list", "UnorderedListOutlined"),
  ]),
  group("share", "/share", "ShareAltOutlined", [
    page("share.netdisk", "/share/netdisk", "share/netdisk", "CloudOutlined"),
  ]),
];

const settingPages = [
  "category",
  "codelist",
  "template",
  "library",
  "bucket",
  "tunnel",
  "action",
  "download",
  "tag",
  "theme",
  "keyword",
  "source",
  "log",
  "catalogue",
  "author",
  "watermark",
  "storyProperties",
] as const;

export const adminMenuSeed: MenuSeedItem[] = [
  group("manage.monitor", "/manage/monitor", "DashboardOutlined", [
    page("manage.monitor.storage", "/manage/monitor/storage", "manage/monitor/storage", "HddOutlined"),
    page("manage.monitor.data", "/manage/monitor/data", "manage/monitor/data", "DatabaseOutlined"),
    page("manage.monitor.task", "/manage/monitor/task", "manage/monitor/task", "ScheduleOutlined"),
    page("manage.monitor.publish", "/manage/monitor/publish", "manage/monitor/publish", "SendOutlined"),
    // /backend redirects here (spec section 2); it shows the storage monitor.
    { ...page("backend.monitor.storage", "/backend/monitor/storage", "manage/monitor/storage"), hidden: true },
  ]),
  page(
    "backend.setting.usedStatistic",
    "/backend/setting/usedStatistic",
    "backend/setting/usedStatistic",
    "BarChartOutlined",
  ),
  group("manage.storage", "/manage/storage", "CloudServerOutlined", [
    page("manage.storage.setting", "/manage/storage/setting", "manage/storage/setting", "SettingOutlined"),
  ]),
  group("manage.access", "/manage/access", "SafetyOutlined", [
    page("manage.access.control", "/manage/access/control", "manage/access/control", "LockOutlined"),
  ]),
  group("manage.userrole", "/manage/userrole", "TeamOutlined", [
    page("manage.userrole.user", "/manage/userrole/user", "manage/userrole/user", "UserOutlined"),
    page("manage.userrole.role", "/manage/userrole/role", "manage/userrole/role", "IdcardOutlined"),
    page("manage.userrole.property", "/manage/userrole/property", "manage/userrole/property", "ProfileOutlined"),
  ]),
  group(
    "manage.setting",
    "/manage/setting",
    "SettingOutlined",
    settingPages.map((name) => page(`manage.setting.${name}`, `/manage/setting/${name}`, `manage/setting/${name}`)),
  ),
];

export const menuSeeds: Record<MenuArea, MenuSeedItem[]> = { user: userMenuSeed, admin: adminMenuSeed };
