import type { ColumnType, Generated, Insertable, Selectable } from "kysely";

/** Users, roles, grants, tokens, sign-in and the keys every node shares (users, access, api-tokens, oidc, auth, secrets). */

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

/** Self-registration (migration 0029, modules/users): one row, the administrator's choice. */
export interface RegistrationSettingsTable {
  id: number;
  mode: "off" | "approval" | "open";
  /** roles.id a registered account gets (an administrator may change it when approving). */
  default_role_id: string;
  updated_by: string | null;
  updated_at: string;
}

/** Keys every node must share (modules/secrets): stored here when not configured, or only their fingerprint when they are. */
export interface SharedSecretsTable {
  /** e.g. `oidc.keys`, `media-urls.key`, `channels.credentials-key`. */
  name: string;
  /** The secret itself (text or JSON); null when the nodes take it from their configuration. */
  value: string | null;
  /** SHA-256 (hex) of the secret, to see that every node uses the same one. */
  fingerprint: string;
  source: "generated" | "configured" | "imported";
  created_at: string;
  updated_at: string;
}

/** Field-level access per role (modules/access): no row is visible and editable. */
export interface PropertyAccessTable {
  role_id: string;
  /** A key of a story's custom `properties` (a story property's name). */
  property: string;
  visible: boolean | number;
  editable: boolean | number;
  updated_at: string;
}

export type UserRow = Selectable<UsersTable>;

export type NewUserRow = Insertable<UsersTable>;

export type MenuRow = Selectable<MenusTable>;
