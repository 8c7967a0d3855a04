import { describe, expect, it } from "vitest";
import type { RouteAccess } from "../auth/auth.types.js";
import { PERMISSION_KEYS } from "../auth/permissions.js";
import { type MenuSeedItem, menuSeeds } from "./menu-seed.js";

function keysOf(items: MenuSeedItem[]): string[] {
  return items.flatMap((item) => [item.key, ...keysOf(item.children ?? [])]);
}

describe("permission keys", () => {
  it("are the menu seed's keys, each once, the front area's then the back area's in menu order", () => {
    const seeded = [...keysOf(menuSeeds.user), ...keysOf(menuSeeds.admin)];
    expect(new Set(seeded).size).toBe(seeded.length);
    expect([...PERMISSION_KEYS]).toEqual(seeded);
  });

  it("are a type: a route declaring a key that is no menu fails type-checking", () => {
    // @ts-expect-error "serach" is not a permission key (tsc reports an unused directive if it were one)
    const typo: RouteAccess = { permission: "serach", action: "get" };
    const known: RouteAccess = { permission: "search", action: "get" };
    expect([typo, known]).toHaveLength(2);
  });
});
