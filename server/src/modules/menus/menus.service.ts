import type { MenuArea } from "./menu-seed.js";
import type { MenuRecord, MenusRepository } from "./menus.repository.js";
import type { MenuItem } from "./menus.schema.js";

/** Builds the menu tree of spec section 2 from its flat rows. */
export function buildMenuTree(rows: MenuRecord[]): MenuItem[] {
  const items = new Map<string, MenuItem>();
  for (const row of rows) {
    items.set(row.id, {
      id: row.id,
      key: row.key,
      path: row.path,
      title: row.title,
      icon: row.icon,
      component: row.component,
      redirect: row.redirect,
      hidden: row.hidden,
      children: [],
    });
  }
  const roots: MenuItem[] = [];
  for (const row of rows) {
    const item = items.get(row.id)!;
    const parent = row.parent_id ? items.get(row.parent_id) : undefined;
    if (parent) parent.children.push(item);
    else roots.push(item);
  }
  return roots;
}

export class MenusService {
  constructor(private readonly menus: MenusRepository) {}

  async menuTree(area: MenuArea): Promise<MenuItem[]> {
    return buildMenuTree(await this.menus.listByArea(area));
  }

  /** The permissions roles can grant: every menu key of both areas, the user area first, in menu order. */
  permissionKeys(): Promise<{ key: string; area: MenuArea }[]> {
    return this.menus.keys();
  }
}
