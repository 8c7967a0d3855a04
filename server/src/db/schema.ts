import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";

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
  /** roles.id; optional on insert (UsersService picks the default role). */
  role_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** `sub` at the external OpenID Connect issuer, for users provisioned from it; optional on insert. */
  external_subject: ColumnType<string | null, string | null | undefined, string | null>;
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

export interface RolesTable {
  id: string;
  name: string;
  describe: string;
  status: number;
  creator_id: string | null;
  create_time: string;
  deleted: boolean | number;
}

export interface RolePermissionsTable {
  role_id: string;
  permission_id: string;
  permission_name: string;
  /** JSON list of action keys (text on SQLite, jsonb on PostgreSQL). */
  actions: unknown;
  data_access: string | null;
}

export interface LibraryGrantsTable {
  id: string;
  /** A library id, or `*` for every library. */
  library_id: string;
  role_id: string | null;
  user_id: string | null;
  level: "read" | "write" | "manage";
  created_at: string;
}

export interface ApiTokensTable {
  id: string;
  user_id: string;
  name: string;
  /** sha256 of the whole secret, hex. */
  token_hash: string;
  /** The first characters of the secret, shown in lists. */
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
}

/** What the embedded OpenID Connect provider stores, one row per model instance. */
export interface OidcPayloadsTable {
  type: string;
  id: string;
  /** JSON (text on SQLite, jsonb on PostgreSQL). */
  payload: unknown;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  expires_at: string | null;
  consumed_at: string | null;
}

/** One row per counted event (failed login, registration) for throttling. */
export interface AuthThrottleTable {
  id: string;
  key: string;
  at: string;
}

/** The registry of stored originals (migration 0006); stories reference `key`. */
export interface BlobsTable {
  /** The BlobStore key, e.g. `originals/ab/cd/<uuid>`. */
  key: string;
  /** Hex SHA-256 of the content. */
  sha256: string;
  size: number;
  /** The type found by content sniffing, not the client's claim. */
  mime: string;
  kind: "photo" | "video" | "audio";
  /** The name the file had on the uploader's machine; for display and downloads only. */
  original_name: string | null;
  created_by: string | null;
  created_at: string;
}

export interface Database {
  users: UsersTable;
  menus: MenusTable;
  oidc_payloads: OidcPayloadsTable;
  auth_throttle: AuthThrottleTable;
  roles: RolesTable;
  role_permissions: RolePermissionsTable;
  library_grants: LibraryGrantsTable;
  api_tokens: ApiTokensTable;
  blobs: BlobsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type MenuRow = Selectable<MenusTable>;
