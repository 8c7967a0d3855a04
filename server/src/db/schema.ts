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

export type LibraryKind = "default" | "download" | "personal" | "department" | "publish";
export type StoryType = "photo" | "video" | "audio" | "composite";
export type StoryStatus = "draft" | "committed" | "published";
export type ProcessingState = "none" | "queued" | "running" | "done" | "failed";

export interface LibrariesTable {
  id: string;
  name: string;
  kind: LibraryKind;
  description: string | null;
  sort: number;
  created_at: string;
}

export interface FoldersTable {
  id: string;
  library_id: string;
  parent_id: string | null;
  name: string;
  sort: number;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** JSON columns (text on SQLite, jsonb on PostgreSQL) are read through `DialectAdapter.readJson`. */
export interface StoriesTable {
  id: string;
  library_id: string;
  folder_id: string | null;
  type: StoryType;
  half_product: boolean | number;
  status: StoryStatus;
  title: string;
  caption: string;
  /** JSON list of names. */
  authors: unknown;
  source: string | null;
  /** JSON list. */
  keywords: unknown;
  /** JSON list. */
  tags: unknown;
  theme: string | null;
  category: string | null;
  /** JSON object of custom properties; `lastVersion` is the previous version's oid. */
  properties: unknown;
  /** The current version's oid. */
  oid: string;
  /** The current version's number. */
  version_no: number;
  cover_key: string | null;
  content_sha256: string | null;
  /** 64-bit perceptual hash as 16 hex characters. */
  perceptual_hash: string | null;
  width: number | null;
  height: number | null;
  /** Seconds. */
  duration: number | null;
  size: number | null;
  mime: string | null;
  original_name: string | null;
  captured_at: string | null;
  /** JSON `{ latitude, longitude, altitude? }`. */
  gps: unknown;
  processing_state: ProcessingState;
  processing_error: string | null;
  created_by: string | null;
  created_at: string;
  updated_by: string | null;
  updated_at: string;
}

export interface StoryVersionsTable {
  story_id: string;
  version_no: number;
  oid: string;
  blob_key: string | null;
  sha256: string | null;
  size: number | null;
  mime: string | null;
  original_name: string | null;
  note: string | null;
  created_by: string | null;
  created_at: string;
}

export interface StoryFilesTable {
  id: string;
  story_id: string;
  version_no: number;
  /** original | thumbnail | preview | proxy | poster | strip | waveform | … */
  role: string;
  blob_key: string;
  mime: string;
  size: number;
  width: number | null;
  height: number | null;
  created_at: string;
}

export interface StoryRelationsTable {
  id: string;
  story_id: string;
  related_story_id: string;
  type: string;
  created_by: string | null;
  created_at: string;
}

export interface CompositeMembersTable {
  composite_id: string;
  member_id: string;
  sort: number;
}

export interface FavoritesTable {
  user_id: string;
  library_id: string;
  story_id: string;
  type: string;
  created_at: string;
}

export interface StoryActionsTable {
  id: string;
  library_id: string;
  story_id: string;
  user_id: string | null;
  username: string | null;
  action: string;
  at: string;
  ip: string | null;
  /** JSON object. */
  details: unknown;
}

export interface UserSettingsTable {
  user_id: string;
  default_library_id: string | null;
  default_folder_id: string | null;
  updated_at: string;
}

export interface PublishRecordsTable {
  id: string;
  library_id: string;
  story_id: string;
  version_no: number;
  channel: string | null;
  note: string | null;
  status: string;
  published_by: string | null;
  published_at: string;
}

export interface SharesTable {
  id: string;
  /** sha256 of the token, hex; the token itself is shown once. */
  token_hash: string;
  library_id: string;
  story_id: string;
  created_by: string | null;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
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

/** The durable job queue (modules/jobs, docs/jobs.md). */
export interface JobsTable {
  id: string;
  name: string;
  /** JSON (text on SQLite, jsonb on PostgreSQL): ids, never blobs. */
  payload: unknown;
  state: "queued" | "running" | "succeeded" | "dead" | "cancelled";
  /** Claims so far, the current one included. */
  attempts: number;
  max_attempts: number;
  /** Not claimed before this time (backoff after a failure). */
  run_at: string;
  /** A token per claim; every write of a running job is fenced by it. */
  lease_owner: string | null;
  lease_expires_at: string | null;
  progress: number;
  /** The reason of the last failure. */
  last_error: string | null;
  dedupe_key: string | null;
  /** The story a media job works on (jobs of one story only). */
  story_id: string | null;
  cancel_requested: boolean | number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  updated_at: string;
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
  libraries: LibrariesTable;
  folders: FoldersTable;
  stories: StoriesTable;
  story_versions: StoryVersionsTable;
  story_files: StoryFilesTable;
  story_relations: StoryRelationsTable;
  composite_members: CompositeMembersTable;
  favorites: FavoritesTable;
  story_actions: StoryActionsTable;
  user_settings: UserSettingsTable;
  publish_records: PublishRecordsTable;
  shares: SharesTable;
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
  jobs: JobsTable;
  blobs: BlobsTable;
  story_terms: StoryTermsTable;
  url_fetches: UrlFetchesTable;
}

/** Authors, tags, keywords and the source of a story, one per row (search filters and facets). */
export interface StoryTermsTable {
  story_id: string;
  kind: "author" | "tag" | "keyword" | "source";
  value: string;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type MenuRow = Selectable<MenusTable>;

/** A URL a user asked the server to fetch into a library (the download centre). */
export interface UrlFetchesTable {
  id: string;
  user_id: string;
  url: string;
  library_id: string;
  folder_id: string | null;
  /** The kind the client expected (photo, video, audio), or null. */
  type: string | null;
  /** The file extension the client suggested, for the stored name when the URL has none. */
  suffix: string | null;
  state: "queued" | "running" | "done" | "failed" | "cancelled";
  bytes_received: ColumnType<number | string, number | undefined, number>;
  total_bytes: ColumnType<number | string | null, number | null | undefined, number | null>;
  /** Bytes per second over the last progress interval. */
  speed: ColumnType<number | string, number | undefined, number>;
  error: string | null;
  /** The job fetching it (the latest, after a retry), to cancel it. */
  job_id: string | null;
  /** The refusal's stable code (`fetch.address`), for the web app's translation; null for other failures. */
  error_code: string | null;
  /** The refusal's values as JSON (`{"address":"10.0.0.1",…}`). */
  error_params: string | null;
  /** An HLS stream: segments fetched so far and in all; null for a single file. */
  segments_done: number | null;
  segments_total: number | null;
  story_id: string | null;
  created_at: string;
  updated_at: string;
}
