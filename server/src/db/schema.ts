import type {
  AuthorsTable,
  CategoriesTable,
  CodelistOptionsTable,
  CodelistsTable,
  KeywordHistoryTable,
  KeywordsTable,
  SourcesTable,
  StoryPropertiesTable,
  TagsTable,
  ThemesTable,
} from "./tables/catalogue.js";
import type {
  ApiTokensTable,
  AuthThrottleTable,
  LibraryGrantsTable,
  MenusTable,
  OidcPayloadsTable,
  PropertyAccessTable,
  RegistrationSettingsTable,
  RolePermissionsTable,
  RolesTable,
  SharedSecretsTable,
  UsersTable,
} from "./tables/identity.js";
import type {
  AuditLogTable,
  AuditSettingsTable,
  BlobLocationsTable,
  BlobsTable,
  DiskNodesTable,
  DiskQuotasTable,
  DiskSharesTable,
  IngestKeysTable,
  JobsTable,
  JobWorkersTable,
  LibraryQuotasTable,
  MaintenanceRunsTable,
  StorageCheckProblemsTable,
  StorageChecksTable,
  StorageMovesTable,
  StorageTargetsTable,
  UploadLocksTable,
  UrlFetchesTable,
  VideoEditProjectsTable,
  VideoEditRendersTable,
} from "./tables/operations.js";
import type {
  ActionRulesTable,
  ActionRunsTable,
  ChannelsTable,
  DeliveriesTable,
  DownloadPresetsTable,
  MetadataTemplatesTable,
  PresetRenditionsTable,
  PublishRecordsTable,
  ShareItemsTable,
  ShareSettingsTable,
  SharesTable,
  ShareVisitsTable,
  StoryEmbargoesTable,
  WatermarkPresetsTable,
} from "./tables/sharing.js";
import type {
  CompositeMembersTable,
  FavoritesTable,
  FoldersTable,
  LibrariesTable,
  SearchFormatTable,
  SearchMissesTable,
  SearchRestrictedPropertiesTable,
  StoriesTable,
  StoryActionsTable,
  StoryBatchEditItemsTable,
  StoryBatchEditsTable,
  StoryFilesTable,
  StoryRelationsTable,
  StoryTermsTable,
  StoryTextsTable,
  StoryVersionsTable,
  StoryViewsTable,
  UserSettingsTable,
} from "./tables/stories.js";

export * from "./tables/catalogue.js";
export * from "./tables/identity.js";
export * from "./tables/operations.js";
export * from "./tables/sharing.js";
export * from "./tables/stories.js";

/**
 * Table types as repositories see them after the dialect seam has normalised
 * values: timestamps are ISO-8601 strings; booleans are read through
 * `DialectAdapter.readBoolean` because SQLite returns 0/1.
 */
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
  story_texts: StoryTextsTable;
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
  library_quotas: LibraryQuotasTable;
  disk_shares: DiskSharesTable;
  story_terms: StoryTermsTable;
  search_format: SearchFormatTable;
  search_restricted_properties: SearchRestrictedPropertiesTable;
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
