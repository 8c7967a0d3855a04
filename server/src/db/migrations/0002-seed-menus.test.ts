import { expect, it } from "vitest";
import { type MenuArea, type MenuSeedItem, menuSeeds } from "../../modules/menus/menu-seed.js";
import { describeEachDialect, useTestDb } from "../../test/dialects.js";

/** A menu item as a migrated database holds it, without its generated id. */
interface SeededItem {
  key: string;
  path: string;
  title: string;
  icon: string | null;
  component: string | null;
  redirect: string | null;
  hidden: boolean;
  children: SeededItem[];
}

function fromSeed(items: MenuSeedItem[]): SeededItem[] {
  return items.map((item) => ({
    key: item.key,
    path: item.path,
    title: `menu.${item.key}`,
    icon: item.icon ?? null,
    component: item.component ?? null,
    redirect: item.redirect ?? null,
    hidden: item.hidden ?? false,
    children: fromSeed(item.children ?? []),
  }));
}

describeEachDialect("migration 0002-seed-menus (frozen)", (dialect) => {
  const db = useTestDb(dialect);

  it("gives a new database exactly the menus of the live seed, tree, order and every field", async () => {
    const { kysely, adapter } = db();
    const rows = await kysely.selectFrom("menus").selectAll().orderBy("sort_order").execute();
    const tree = (area: MenuArea, parentId: string | null): SeededItem[] =>
      rows
        .filter((row) => row.area === area && row.parent_id === parentId)
        .map((row) => ({
          key: row.key,
          path: row.path,
          title: row.title,
          icon: row.icon,
          component: row.component,
          redirect: row.redirect,
          hidden: adapter.readBoolean(row.hidden),
          children: tree(area, row.id),
        }));
    for (const area of ["user", "admin"] as const) {
      expect(tree(area, null)).toEqual(fromSeed(menuSeeds[area]));
    }
    // Every row is in one of the two trees: no orphan, no third area.
    const count = (items: SeededItem[]): number => items.reduce((sum, item) => sum + 1 + count(item.children), 0);
    expect(rows).toHaveLength(count(fromSeed(menuSeeds.user)) + count(fromSeed(menuSeeds.admin)));
  });
});
