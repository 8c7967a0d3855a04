import type { ComponentType } from "react";
import * as MENU_ICONS from "./menu-icons";

/** The icons the server's menus name, by name (menu-icons.ts); an unknown name renders no icon. */
const ICONS: Record<string, ComponentType> = MENU_ICONS;

export function menuIcon(name: string | null | undefined) {
  const Icon = name ? ICONS[name] : undefined;
  return Icon ? <Icon /> : undefined;
}

export function hasMenuIcon(name: string): boolean {
  return name in ICONS;
}
