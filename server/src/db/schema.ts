import type { ColumnType, Generated, Insertable, Selectable } from "kysely";

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
export const STORY_TYPES = ["photo", "video", "audio", "composite"] as const;
export type StoryType = (typeof STORY_TYPES)[number];
export const STORY_STATUSES = ["draft", "committed", "published"] as const;
export type StoryStatus = (typeof STORY_STATUSES)[number];
export type ProcessingState = "none" | "queued" | "running" | "done" | "failed";

export interface LibrariesTable {
  id: string;
  name: string;
  kind: LibraryKind;
  description: string | null;
  sort: number;
  created_at: string;
  default_folder_id: string | null;
  /** JSON list of story types; null: every type. */
  story_types: unknown | null;
  template_id: string | null;
  bucket_id: string | null;
  archived_at: string | null;
  updated_at: string | null;
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
  /** One more with every change of the story's metadata (its ETag; docs/stories.md). */
  revision: Generated<number>;
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

export type ShareKind = "story" | "stories" | "folder" | "search";
export type ShareDownloadPolicy = "none" | "preview" | "preset" | "original";
export type ShareMetadata = "basic" | "all";

/** Share links (migration 0026, modules/shares). */
export interface ChannelsTable {
  id: string;
  name: string;
  kind: string;
  format: string;
  enabled: boolean | number;
  settings: unknown;
  field_mapping: unknown;
  /** The download preset per story type: { photo?, video?, audio? } (JSON). */
  presets: unknown;
  /** Encrypted (modules/channels/credentials-cipher.ts); never returned by the API. */
  credentials: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface DeliveriesTable {
  id: string;
  channel_id: string;
  library_id: string;
  story_id: string;
  story_title: string;
  version_no: number;
  action: string;
  state: string;
  attempts: number;
  last_error: string | null;
  job_id: string | null;
  not_before: string | null;
  started_at: string | null;
  finished_at: string | null;
  duration_ms: number | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface StoryEmbargoesTable {
  story_id: string;
  library_id: string;
  until: string;
  set_by: string | null;
  set_at: string;
}

export interface SharesTable {
  id: string;
  /** sha256 of the token, hex; the token itself is shown once. */
  token_hash: string;
  kind: ShareKind;
  title: string;
  message: string | null;
  /** The folder's library (folder), the library searched (search, optional); null for story lists. */
  library_id: string | null;
  folder_id: string | null;
  /** The saved search's query (search): the search list's filters, JSON. */
  search_query: unknown;
  /** argon2id; null without a password. */
  password_hash: string | null;
  /** null: never expires (when the administrator allows it). */
  expires_at: string | null;
  view_limit: number | null;
  download_limit: number | null;
  views: Generated<number>;
  downloads: Generated<number>;
  download_policy: ShareDownloadPolicy;
  /** The download preset whose rendition visitors download (download_policy 'preset'). */
  download_preset_id: string | null;
  metadata: ShareMetadata;
  keep_location: boolean | number;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  revoked_at: string | null;
  last_visit_at: string | null;
  /** The upload drop (migration 0043): the folder visitors' files go to; both null: no drop. */
  drop_library_id: Generated<string | null>;
  drop_folder_id: Generated<string | null>;
  /** At most this many files dropped; null: no limit. */
  drop_max_files: Generated<number | null>;
  /** At most this many bytes per file; null: the upload limit. */
  drop_max_bytes: Generated<number | string | null>;
  /** Files dropped so far. */
  drop_files: Generated<number>;
}

/** The stories of a `story` or `stories` share, in the owner's order. */
export interface ShareItemsTable {
  share_id: string;
  position: number;
  library_id: string;
  story_id: string;
}

export type ShareVisitAction = "open" | "locked" | "unlock" | "wrong-password" | "view" | "download" | "zip" | "upload";

/** Story views per UTC day, story and user (the usage statistics; monitor module). */
export interface StoryViewsTable {
  /** YYYY-MM-DD (UTC). */
  day: string;
  story_id: string;
  user_id: string;
  library_id: string;
  views: number;
}

/** Searches that found nothing, per UTC day and normalised query (the usage statistics; monitor module). */
export interface SearchMissesTable {
  day: string;
  query: string;
  searches: number;
  last_at: string;
}

/** One visitor action on a share link (its visitor log); the newest rows of each share are kept. */
export type StoryBatchState = "queued" | "running" | "succeeded" | "failed";
export type StoryBatchOutcome = "changed" | "unchanged" | "refused" | "failed";

/** A batch edit of story metadata (story-batch module). */
export interface StoryBatchEditsTable {
  id: string;
  user_id: string;
  ip: string | null;
  /** The operations, as the request gave them (JSON). */
  operations: unknown;
  state: StoryBatchState;
  total: number;
  error: string | null;
  job_id: string | null;
  created_at: string;
  finished_at: string | null;
}

/** One story of a batch edit; `outcome` null while it is pending. */
export interface StoryBatchEditItemsTable {
  batch_id: string;
  position: number;
  story_id: string;
  library_id: string | null;
  title: string | null;
  outcome: StoryBatchOutcome | null;
  /** Why it was refused or failed: an error code (`property_not_editable`, `not_found`…). */
  reason: string | null;
  /** The refusal's message, in English. */
  message: string | null;
  /** The fields changed (JSON list of names). */
  fields: unknown;
}

export interface ShareVisitsTable {
  /** Ascending in the order rows were written; the tie-breaker after `at`. */
  id: Generated<number>;
  share_id: string;
  at: string;
  /** The request's address as the server sees it (behind a trusted proxy: the client's). */
  address: string | null;
  action: ShareVisitAction;
  /** The story viewed or downloaded; null for the share as a whole. */
  story_id: string | null;
  /** The first characters of the browser's User-Agent. */
  user_agent: string | null;
  /** The name the visitor gave with an upload (migration 0043). */
  visitor_name: Generated<string | null>;
}

/** The administrator's limits on share links (one row, id 1). */
export interface ShareSettingsTable {
  id: number;
  max_days: number;
  allow_never: boolean | number;
  updated_by: string | null;
  updated_at: string;
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

/** A job worker's heartbeat (modules/jobs, migration 0027): one row per worker process. */
export interface JobWorkersTable {
  /** JobWorker.id: host:pid:random. */
  id: string;
  host: string;
  pid: number;
  concurrency: number;
  /** Jobs it ran at its last heartbeat. */
  running: number;
  started_at: string;
  last_seen_at: string;
  /** Set when it stopped cleanly; null while it runs (or when it was lost). */
  stopped_at: string | null;
}

/** Field-level access per role (modules/access): no row is visible and editable. */
/** A storage target besides the built-in storage (migration 0034, modules/storage). */
export interface StorageTargetsTable {
  id: string;
  name: string;
  kind: "local" | "s3";
  /** JSON: local `{ directory }`; s3 `{ endpoint, region, bucket, prefix, pathStyle, accessKeyId }`. */
  settings: unknown;
  /** Encrypted secret access key; never returned by the API. */
  secret: string | null;
  is_default: boolean | number;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** Where a blob lives when not in the built-in storage (migration 0034, modules/storage). */
export interface BlobLocationsTable {
  key: string;
  target_id: string;
  previous_target_id: string | null;
  updated_at: string;
}

/** A library's files moved to another storage target (migration 0034, modules/storage). */
export interface StorageMovesTable {
  id: string;
  library_id: string;
  target_id: string;
  state: "queued" | "running" | "succeeded" | "failed";
  total_files: number;
  moved_files: number;
  moved_bytes: number;
  error: string | null;
  job_id: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

export interface StorageChecksTable {
  id: string;
  state: "queued" | "running" | "succeeded" | "failed" | "cancelled";
  total_files: number;
  checked_files: number;
  checked_bytes: number;
  missing: number;
  mismatched: number;
  unreadable: number;
  /** The last blob key checked (keys are checked in order): where a resumed check goes on. */
  cursor: string | null;
  error: string | null;
  job_id: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

export interface StorageCheckProblemsTable {
  check_id: string;
  key: string;
  kind: "missing" | "mismatched" | "unreadable";
  expected_sha256: string;
  expected_size: number;
  actual_sha256: string | null;
  actual_size: number | null;
  detail: string | null;
  found_at: string;
}

export interface MaintenanceRunsTable {
  id: string;
  started_at: string;
  finished_at: string;
  /** JSON: the run's MaintenanceReport (maintenance/maintenance-runs.ts). */
  report: unknown;
}

export interface PropertyAccessTable {
  role_id: string;
  /** A key of a story's custom `properties` (a story property's name). */
  property: string;
  visible: boolean | number;
  editable: boolean | number;
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

/** What an ingest key made (migration 0023, modules/ingest): a retried ingest gets this story back. */
export interface IngestKeysTable {
  key: string;
  library_id: string;
  story_id: string;
  version_no: number;
  blob_key: string;
  created_at: string;
}

/** A folder or file of a user's network disk (migration 0025, modules/disk). */
export interface DiskNodesTable {
  id: string;
  owner_id: string;
  parent_id: string | null;
  kind: "folder" | "file";
  name: string;
  /** A file's bytes in the BlobStore (`disk/ab/cd/<uuid>`); null for a folder. */
  blob_key: string | null;
  size: ColumnType<number, number | undefined, number>;
  /** The type found by content sniffing (application/octet-stream when unknown), never the client's claim. */
  mime: string | null;
  sha256: string | null;
  created_at: string;
  updated_at: string;
  trashed_at: string | null;
  /** The node the user deleted (its descendants went to the trash with it). */
  trash_root: ColumnType<boolean | number, boolean | number | undefined, boolean | number>;
}

/** A user's disk quota set by an administrator (without a row: the default). */
export interface DiskQuotasTable {
  user_id: string;
  quota_bytes: number;
  updated_by: string | null;
  updated_at: string;
}

/** A disk folder or file shared inside the newsroom. */
export interface DiskSharesTable {
  id: string;
  node_id: string;
  owner_id: string;
  grantee_kind: "user" | "role" | "everyone";
  /** users.id, roles.id, or "*" for everyone. */
  grantee_id: string;
  level: "view" | "download" | "edit";
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
  channels: ChannelsTable;
  deliveries: DeliveriesTable;
  story_embargoes: StoryEmbargoesTable;
  shares: SharesTable;
  share_items: ShareItemsTable;
  share_settings: ShareSettingsTable;
  share_visits: ShareVisitsTable;
  story_batch_edits: StoryBatchEditsTable;
  story_batch_edit_items: StoryBatchEditItemsTable;
  story_views: StoryViewsTable;
  search_misses: SearchMissesTable;
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
  property_access: PropertyAccessTable;
  storage_targets: StorageTargetsTable;
  blob_locations: BlobLocationsTable;
  storage_moves: StorageMovesTable;
  storage_checks: StorageChecksTable;
  storage_check_problems: StorageCheckProblemsTable;
  maintenance_runs: MaintenanceRunsTable;
  jobs: JobsTable;
  job_workers: JobWorkersTable;
  blobs: BlobsTable;
  ingest_keys: IngestKeysTable;
  disk_nodes: DiskNodesTable;
  disk_quotas: DiskQuotasTable;
  disk_shares: DiskSharesTable;
  story_terms: StoryTermsTable;
  search_format: SearchFormatTable;
  url_fetches: UrlFetchesTable;
  upload_locks: UploadLocksTable;
  shared_secrets: SharedSecretsTable;
  video_edit_projects: VideoEditProjectsTable;
  video_edit_renders: VideoEditRendersTable;
  audit_log: AuditLogTable;
  audit_settings: AuditSettingsTable;
  registration_settings: RegistrationSettingsTable;
  watermark_presets: WatermarkPresetsTable;
  download_presets: DownloadPresetsTable;
  preset_renditions: PresetRenditionsTable;
  metadata_templates: MetadataTemplatesTable;
  action_rules: ActionRulesTable;
  action_runs: ActionRunsTable;
}

/** Automation rules (migration 0036, modules/actions): a trigger, conditions and steps. */
export interface ActionRulesTable {
  id: string;
  name: string;
  enabled: boolean | number;
  /** committed | published | tagged */
  trigger: string;
  /** JSON: libraryIds, types, tags, keyword, authors (actions.schema.ts). */
  conditions: unknown;
  /** JSON: the steps in order (actions.schema.ts). */
  steps: unknown;
  owner_id: string;
  created_at: string;
  updated_at: string;
}

/** One rule's run for one story event (migration 0036, modules/actions). */
export interface ActionRunsTable {
  id: string;
  rule_id: string;
  event_id: string;
  trigger: string;
  library_id: string;
  story_id: string;
  story_title: string;
  /** queued | running | succeeded | failed */
  state: string;
  /** JSON: per step, its kind, whether it passed and what it did or why not. */
  step_results: unknown;
  error: string | null;
  job_id: string | null;
  started_at: string | null;
  finished_at: string | null;
  duration_ms: number | null;
  created_at: string;
}

/** Metadata templates (migration 0030): story field values with {date}, {user}, {library}. */
export interface MetadataTemplatesTable {
  id: string;
  name: string;
  description: string | null;
  /** JSON: the values (metadata-templates/metadata-templates.schema.ts). */
  template_values: unknown;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** Watermark presets (migration 0024, modules/presets): the spec's watermark settings as JSON, the mark's image. */
export interface WatermarkPresetsTable {
  id: string;
  name: string;
  /** JSON: the watermark settings (presets/watermarks.schema.ts). */
  settings: unknown;
  /** base64 of the image mark's PNG or JPEG. */
  image_data: string | null;
  image_type: string | null;
  image_width: number | null;
  image_height: number | null;
  revision: number;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** Download presets (migration 0024): named renditions of one story type. */
export interface DownloadPresetsTable {
  id: string;
  name: string;
  story_type: "photo" | "video" | "audio";
  /** JSON: format, size, quality, colour, metadata, bitrates (presets/download-presets.schema.ts). */
  settings: unknown;
  watermark_preset_id: string | null;
  /** JSON: the roles that may use it; empty for every role. */
  role_ids: unknown;
  enabled: boolean;
  revision: number;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** A download preset's rendition of one story version, made by the "presets.render" job (migration 0024). */
export interface PresetRenditionsTable {
  id: string;
  preset_id: string;
  /** The preset's revision it is (being) made for. */
  revision: number;
  library_id: string;
  story_id: string;
  version_no: number;
  state: "queued" | "running" | "done" | "failed";
  blob_key: string | null;
  mime: string | null;
  size: ColumnType<number | string | null, number | null | undefined, number | null>;
  width: number | null;
  height: number | null;
  error: string | null;
  created_at: string;
  updated_at: string;
}

/** The operation log (migration 0022): append-only, one row per change, sign-in, download or refusal. */
export interface AuditLogTable {
  /** Ascending in the order rows were written; the keyset's tie-breaker after `at`. */
  id: Generated<number>;
  at: string;
  /** null for the system (jobs) and for sign-ins of unknown accounts. */
  actor_id: string | null;
  /** The username at the time (the attempted one for a failed sign-in). */
  actor_name: string | null;
  ip: string | null;
  user_agent: string | null;
  /** `<domain>.<verb>`, e.g. `story.delete`, `signin.failure`. */
  action: string;
  target_type: string;
  target_id: string | null;
  target_label: string | null;
  result: "ok" | "denied" | "failed";
  /** JSON: the changed fields' values before and after an edit. */
  before: unknown;
  after: unknown;
  /** JSON: anything else worth knowing. */
  details: unknown;
}

/** The administrator's retention of the operation log (one row, id 1). */
export interface AuditSettingsTable {
  id: number;
  /** Rows older than this many days are pruned by the maintenance job; null keeps them all. */
  retention_days: number | null;
  /** Whether pruned rows are written to an archive file first. */
  archive: boolean | number;
  updated_by: string | null;
  updated_at: string;
}

/** The lock of a tus upload, held by one request on one node until it lets go or its lease runs out. */
export interface UploadLocksTable {
  /** The tus upload id. */
  upload_id: string;
  /** `<node>/<uuid>` of the request holding it. */
  holder: string;
  /** Renewed while held; past it, anyone may take the lock. */
  expires_at: string;
}

/** Authors, tags, keywords and the source of a story, one per row (search filters and facets). */
/** One row: the format the search index's entries are written in (migration 0022). */
export interface SearchFormatTable {
  id: number;
  version: number;
}

export interface StoryTermsTable {
  story_id: string;
  kind: "author" | "tag" | "keyword" | "source";
  value: string;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
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

/** A user's video editor project: the EDL as last autosaved (owned by modules/video-edit). */
export interface VideoEditProjectsTable {
  id: string;
  owner_id: string;
  kind: "video" | "slideshow";
  title: string;
  /** The EDL (JSON; text on SQLite). */
  edl: unknown;
  /** Goes up by one with each save; a save naming an older one is refused (two tabs). */
  revision: number;
  /** The story the project was last saved as. */
  story_library_id: string | null;
  story_id: string | null;
  created_at: string;
  updated_at: string;
}

/** A render of an EDL (its sources' versions pinned) and, once done, its MP4 in the blob store. */
export interface VideoEditRendersTable {
  id: string;
  user_id: string;
  project_id: string | null;
  edl: unknown;
  job_id: string | null;
  /** The rendered MP4 (an `originals/…` blob with its `blobs` row) until a story takes it or it expires. */
  output_key: string | null;
  /** The poster frame the EDL chose, a JPEG blob. */
  poster_key: string | null;
  method: "copy" | "encode" | null;
  /** Why it was re-encoded rather than copied. */
  reason: string | null;
  duration: number | null;
  width: number | null;
  height: number | null;
  size: ColumnType<number | string | null, number | null | undefined, number | null>;
  story_library_id: string | null;
  story_id: string | null;
  created_at: string;
  finished_at: string | null;
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
