import { randomUUID } from "node:crypto";
import { type MenuArea, type MenuSeedItem, menuSeeds } from "../../modules/menus/menu-seed.js";
import type { AnyKysely } from "./index.js";

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
