import type { Generated, Insertable, Selectable, Updateable } from "kysely";

/**
 * Table types as repositories see them after the dialect seam has normalised
 * values: timestamps are ISO-8601 strings; booleans are read through
 * `DialectAdapter.readBoolean` because SQLite returns 0/1.
 */
export interface UsersTable {
  id: string;
  username: string;
  name: string;
  password_hash: string | null;
  avatar_url: string | null;
  admin: boolean | number;
  status: Generated<number>;
  last_access_ip: string | null;
  last_access_time: string | null;
  created_at: string;
  updated_at: string;
}

export interface MenusTable {
  id: string;
  area: "user" | "admin";
  parent_id: string | null;
  key: string;
  path: string;
  title: string;
  icon: string | null;
  component: string | null;
  redirect: string | null;
  hidden: boolean | number;
  sort_order: number;
}

export interface Database {
  users: UsersTable;
  menus: MenusTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type MenuRow = Selectable<MenusTable>;
