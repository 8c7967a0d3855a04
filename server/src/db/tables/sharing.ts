import type { ColumnType, Generated } from "kysely";

/** Share links, publishing channels and deliveries, presets, metadata templates and automation rules (shares, channels, publishing, presets, metadata-templates, actions). */

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

/** Share links (migration 0026, modules/shares). */
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

/** One visitor action on a share link (its visitor log); the newest rows of each share are kept. */
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
