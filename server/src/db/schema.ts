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

/** Catalogue (migration 0008). Ids are uuids; names are unique regardless of case where noted. */
export interface ThemesTable {
  id: string;
  name: string;
  description: string | null;
  sort_order: number;
  created_at: string;
  updated_at: string;
}

export interface TagsTable {
  id: string;
  name: string;
  color: string | null;
  description: string | null;
  created_at: string;
  updated_at: string;
}

export interface KeywordsTable {
  id: string;
  name: string;
  /** How many times the keyword was applied; orders /keyword/listByOrder. */
  use_count: number;
  created_at: string;
  updated_at: string;
}

/** A user's recently used keywords; one row per user and keyword (case-insensitive). */
export interface KeywordHistoryTable {
  id: string;
  user_id: string;
  keyword: string;
  used_at: string;
}

export interface SourcesTable {
  id: string;
  name: string;
  description: string | null;
  sort_order: number;
  created_at: string;
  updated_at: string;
}

/** nrauthor: a reporter, photographer or agency credited on stories. */
export interface AuthorsTable {
  id: string;
  name: string;
  pen_name: string | null;
  department: string | null;
  phone: string | null;
  email: string | null;
  description: string | null;
  created_at: string;
  updated_at: string;
}

export interface CategoriesTable {
  id: string;
  name: string;
  parent_id: string | null;
  description: string | null;
  sort_order: number;
  created_at: string;
  updated_at: string;
}

export interface CodelistsTable {
  id: string;
  /** A stable key (`storyLevel`); /codelists/codelist/option?id= accepts it as well as the id. */
  code: string;
  name: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

export interface CodelistOptionsTable {
  id: string;
  codelist_id: string;
  value: string;
  label: string;
  sort_order: number;
  created_at: string;
  updated_at: string;
}

/** A custom property of stories of one type, in one library (or every library when library_id is null). */
export interface StoryPropertiesTable {
  id: string;
  story_type: string;
  library_id: string | null;
  name: string;
  label: string;
  kind: string;
  required: boolean | number;
  default_value: string | null;
  codelist_id: string | null;
  sort_order: number;
  isquick: boolean | number;
  created_at: string;
  updated_at: string;
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
  themes: ThemesTable;
  tags: TagsTable;
  keywords: KeywordsTable;
  keyword_history: KeywordHistoryTable;
  sources: SourcesTable;
  authors: AuthorsTable;
  categories: CategoriesTable;
  codelists: CodelistsTable;
  codelist_options: CodelistOptionsTable;
  story_properties: StoryPropertiesTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type MenuRow = Selectable<MenusTable>;
