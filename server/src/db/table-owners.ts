import type { Database } from "./schema.js";

/**
 * Every table has one owning module (a folder under `server/src/modules/`).
 * Only the owner's files query the table; every other module asks the
 * owner's service. `table-owners.test.ts` reads the source and fails when a
 * file outside the owner names the table in a Kysely call (`selectFrom`,
 * `insertInto`, `updateTable`, `deleteFrom`, a join) or in raw SQL.
 *
 * A new table goes here in the same change that adds it to `schema.ts`:
 * `satisfies` makes type-checking fail for a table without an owner.
 *
 * `readBy` names the few other modules that may read (never write) the
 * table, and why: a read model built from it, a name shown beside the
 * reader's own rows. Keep it short; a service call is the default.
 */
export interface TableOwnership {
  owner: ModuleName;
  readBy?: Partial<Record<ModuleName, string>>;
}

/** The modules: the folders under server/src/modules/ (a sub-folder counts as its module: catalogue/tags is catalogue). */
export const MODULES = [
  "access",
  "actions",
  "api-tokens",
  "audit",
  "auth",
  "blobs",
  "catalogue",
  "channels",
  "dav",
  "disk",
  "embed",
  "exports",
  "favourites",
  "folders",
  "ingest",
  "jobs",
  "libraries",
  "maintenance",
  "media-uploads",
  "media-urls",
  "menus",
  "metadata-templates",
  "monitor",
  "oidc",
  "outgoing",
  "presets",
  "processing",
  "publishing",
  "relations",
  "search",
  "secrets",
  "shares",
  "stories",
  "storage",
  "story-batch",
  "system",
  "uploads",
  "url-ingest",
  "user-settings",
  "users",
  "video-edit",
] as const;
export type ModuleName = (typeof MODULES)[number];

export const TABLE_OWNERS = {
  users: {
    owner: "users",
    readBy: { access: "the library grants list shows and searches the username of a user's grant" },
  },
  menus: { owner: "menus" },
  oidc_payloads: { owner: "oidc" },
  auth_throttle: { owner: "oidc" },
  roles: { owner: "access" },
  property_access: { owner: "access" },
  storage_targets: { owner: "storage" },
  blob_locations: { owner: "storage" },
  storage_moves: { owner: "storage" },
  storage_checks: { owner: "storage" },
  library_quotas: { owner: "storage" },
  storage_check_problems: { owner: "storage" },
  maintenance_runs: { owner: "maintenance" },
  role_permissions: { owner: "access" },
  library_grants: { owner: "access" },
  api_tokens: { owner: "api-tokens" },
  libraries: { owner: "libraries" },
  folders: { owner: "folders" },
  stories: {
    owner: "stories",
    readBy: { search: "the search index is a read model of stories: it is built from them and lists them" },
  },
  story_versions: { owner: "stories" },
  story_files: { owner: "stories" },
  composite_members: { owner: "stories" },
  story_texts: {
    owner: "stories",
    readBy: { search: "a composite's text is part of its index entry (its plain words)" },
  },
  story_actions: { owner: "stories" },
  story_relations: { owner: "relations" },
  favorites: { owner: "favourites" },
  user_settings: { owner: "user-settings" },
  publish_records: { owner: "publishing" },
  channels: { owner: "channels" },
  deliveries: { owner: "publishing" },
  story_embargoes: { owner: "publishing" },
  shares: { owner: "shares" },
  share_items: { owner: "shares" },
  share_settings: { owner: "shares" },
  share_visits: { owner: "shares" },
  story_batch_edits: { owner: "story-batch" },
  story_batch_edit_items: { owner: "story-batch" },
  story_views: { owner: "monitor" },
  search_misses: { owner: "monitor" },
  themes: { owner: "catalogue" },
  tags: { owner: "catalogue" },
  keywords: { owner: "catalogue" },
  keyword_history: { owner: "catalogue" },
  sources: { owner: "catalogue" },
  authors: { owner: "catalogue" },
  categories: { owner: "catalogue" },
  codelists: { owner: "catalogue" },
  codelist_options: { owner: "catalogue" },
  story_properties: { owner: "catalogue" },
  jobs: { owner: "jobs" },
  job_workers: { owner: "jobs" },
  blobs: { owner: "blobs" },
  ingest_keys: { owner: "ingest" },
  disk_nodes: { owner: "disk" },
  disk_quotas: { owner: "disk" },
  disk_shares: { owner: "disk" },
  story_terms: { owner: "search" },
  search_format: { owner: "search" },
  search_restricted_properties: { owner: "search" },
  url_fetches: { owner: "url-ingest" },
  upload_locks: { owner: "uploads" },
  shared_secrets: { owner: "secrets" },
  video_edit_projects: { owner: "video-edit" },
  video_edit_renders: { owner: "video-edit" },
  audit_log: { owner: "audit" },
  audit_settings: { owner: "audit" },
  registration_settings: { owner: "users" },
  watermark_presets: { owner: "presets" },
  download_presets: { owner: "presets" },
  preset_renditions: { owner: "presets" },
  metadata_templates: { owner: "metadata-templates" },
  action_rules: { owner: "actions" },
  action_runs: { owner: "actions" },
} as const satisfies Record<keyof Database, TableOwnership>;

export type TableName = keyof typeof TABLE_OWNERS;

/**
 * Leaks that exist today and are being moved to their owner by the change
 * named: a file (under server/src) that queries another module's table, or
 * that uses another module's repository class instead of its service. The
 * test fails when an entry is no longer needed, so the list only shrinks.
 */
export const TEMPORARY_LEAKS: readonly { file: string; table?: TableName; repository?: string; until: string }[] = [];
