import { randomUUID } from "node:crypto";
import type { AnyKysely } from "./index.js";

/*
 * Frozen: the menus as this migration seeded them, copied in from
 * modules/menus/menu-seed.ts when it was written (a migration never imports
 * live code: the seed may change, what this migration did may not). A change
 * to the menus is a new migration plus the same change in menu-seed.ts;
 * 0002-seed-menus.test.ts checks that a new database's menus are the seed's.
 */
type MenuArea = "user" | "admin";

interface MenuSeedItem {
  key: string;
  path: string;
  icon?: string;
  component?: string;
  redirect?: string;
  hidden?: boolean;
  children?: MenuSeedItem[];
}

function page(key: string, path: string, component: string, icon?: string): MenuSeedItem {
  return { key, path, component, icon };
}

function group(key: string, path: string, icon: string, children: MenuSeedItem[]): MenuSeedItem {
  return { key, path, icon, redirect: children[0]?.path, children };
}

const userMenuSeed: MenuSeedItem[] = [
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

const adminMenuSeed: MenuSeedItem[] = [
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

const menuSeeds: Record<MenuArea, MenuSeedItem[]> = { user: userMenuSeed, admin: adminMenuSeed };

interface MenuInsert {
  id: string;
  area: MenuArea;
  parent_id: string | null;
  key: string;
  path: string;
  title: string;
  icon: string | null;
  component: string | null;
  redirect: string | null;
  hidden: boolean;
  sort_order: number;
}

function flatten(area: MenuArea, items: MenuSeedItem[], parentId: string | null, rows: MenuInsert[]): MenuInsert[] {
  items.forEach((item, index) => {
    const id = randomUUID();
    rows.push({
      id,
      area,
      parent_id: parentId,
      key: item.key,
      path: item.path,
      title: `menu.${item.key}`,
      icon: item.icon ?? null,
      component: item.component ?? null,
      redirect: item.redirect ?? null,
      hidden: item.hidden ?? false,
      sort_order: index,
    });
    flatten(area, item.children ?? [], id, rows);
  });
  return rows;
}

/** The built-in menus of spec section 2; later migrations change them. */
export const seedMenus = {
  async up(db: AnyKysely): Promise<void> {
    const rows = (Object.keys(menuSeeds) as MenuArea[]).flatMap((area) => flatten(area, menuSeeds[area], null, []));
    await db.insertInto("menus").values(rows).execute();
  },
  async down(db: AnyKysely): Promise<void> {
    await db.deleteFrom("menus").execute();
  },
};
