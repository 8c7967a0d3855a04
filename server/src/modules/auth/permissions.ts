/**
 * The vocabulary of spec section 6: a role holds permissions (permissionId =
 * a menu key) and, per permission, a list of actions.
 */
export const ACTIONS = [
  "add",
  "delete",
  "edit",
  "query",
  "get",
  "update",
  "enable",
  "disable",
  "import",
  "export",
] as const;

export type Action = (typeof ACTIONS)[number];

/** The `describe` of each action in `actionEntitySet`, as Ant Design Pro's role model names them. */
export const ACTION_DESCRIPTIONS: Record<Action, string> = {
  add: "新增",
  delete: "删除",
  edit: "编辑",
  query: "查询",
  get: "详情",
  update: "修改",
  enable: "启用",
  disable: "禁用",
  import: "导入",
  export: "导出",
};

export function isAction(value: string): value is Action {
  return (ACTIONS as readonly string[]).includes(value);
}

/**
 * Every permission a role can hold: the menu keys of spec section 2, the
 * front area's then the back area's, in menu order. The menu seed
 * (modules/menus/menu-seed.ts) is typed by it and a test checks both list the
 * same keys, so a route declaring `{ permission: "serach" }` fails type-checking.
 */
export const PERMISSION_KEYS = [
  "search",
  "upload",
  "upload.image",
  "upload.video",
  "upload.audio",
  "upload.favorite",
  "upload.download",
  "upload.my",
  "story",
  "story.list",
  "halfproduct",
  "halfproduct.list",
  "share",
  "share.netdisk",
  "manage.monitor",
  "manage.monitor.storage",
  "manage.monitor.data",
  "manage.monitor.task",
  "manage.monitor.publish",
  "backend.monitor.storage",
  "backend.setting.usedStatistic",
  "manage.storage",
  "manage.storage.setting",
  "manage.access",
  "manage.access.control",
  "manage.userrole",
  "manage.userrole.user",
  "manage.userrole.role",
  "manage.userrole.property",
  "manage.setting",
  "manage.setting.category",
  "manage.setting.codelist",
  "manage.setting.template",
  "manage.setting.library",
  "manage.setting.bucket",
  "manage.setting.tunnel",
  "manage.setting.action",
  "manage.setting.download",
  "manage.setting.tag",
  "manage.setting.theme",
  "manage.setting.keyword",
  "manage.setting.source",
  "manage.setting.log",
  "manage.setting.catalogue",
  "manage.setting.author",
  "manage.setting.watermark",
  "manage.setting.storyProperties",
] as const;

export type PermissionKey = (typeof PERMISSION_KEYS)[number];

/** The permissions of one role: permissionId → the actions granted on it. */
export type PermissionSet = ReadonlyMap<string, ReadonlySet<Action>>;

export function hasPermission(permissions: PermissionSet, permissionId: string, action?: Action): boolean {
  const actions = permissions.get(permissionId);
  if (!actions) return false;
  return action === undefined || actions.has(action);
}

/**
 * The first `permissionId.action` in `wanted` that `held` lacks, if any. A
 * non-administrator may only hand out (in a role they edit or assign) what
 * they hold themselves; otherwise user administration is a way to escalate.
 */
export function firstUnheld(
  held: PermissionSet,
  wanted: readonly { permissionId: string; actions: readonly Action[] }[],
): string | undefined {
  for (const permission of wanted) {
    const missing = permission.actions.find((action) => !hasPermission(held, permission.permissionId, action));
    if (missing) return `${permission.permissionId}.${missing}`;
  }
  return undefined;
}

export const LIBRARY_LEVELS = ["read", "write", "manage"] as const;
export type LibraryLevel = (typeof LIBRARY_LEVELS)[number];

/** Levels are ordered: manage implies write implies read. */
export function levelAtLeast(held: LibraryLevel, wanted: LibraryLevel): boolean {
  return LIBRARY_LEVELS.indexOf(held) >= LIBRARY_LEVELS.indexOf(wanted);
}

/** The part of a user library access depends on. */
export interface LibraryUser {
  id: string;
  admin: boolean;
  roleId: string | null;
}

/** A grant on this library id covers every library. */
export const ALL_LIBRARIES = "*";

/** The back area's system-settings group: shown and allowed only to administrators (users.admin). */
export const ADMIN_ONLY_PERMISSION = "manage.setting";

export function isAdminOnlyPermission(permissionId: string): boolean {
  return permissionId === ADMIN_ONLY_PERMISSION || permissionId.startsWith(`${ADMIN_ONLY_PERMISSION}.`);
}

/** The ids of the built-in roles (seeded by migration 0004). */
export const BUILT_IN_ROLES = {
  administrator: "administrator",
  editor: "editor",
  contributor: "contributor",
  viewer: "viewer",
} as const;

/** The role a new user gets when none is chosen. */
export const DEFAULT_ROLE_ID = BUILT_IN_ROLES.contributor;
