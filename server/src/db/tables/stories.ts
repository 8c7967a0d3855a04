import type { Generated } from "kysely";

/** Libraries, folders, stories and what hangs on them (libraries, folders, stories, favourites, relations, user settings, story-batch, search, monitor statistics). */

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

/** A composite's text (issue 15): the sanitised TipTap JSON, the server-written HTML, the plain words. */
export interface StoryTextsTable {
  story_id: string;
  doc: string;
  html: string;
  words: string;
  updated_at: string;
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

/** Authors, tags, keywords and the source of a story, one per row (search filters and facets). */
export interface StoryTermsTable {
  story_id: string;
  kind: "author" | "tag" | "keyword" | "source";
  value: string;
}

/** One row: the format the search index's entries are written in (migration 0022). */
export interface SearchFormatTable {
  id: number;
  version: number;
}

/**
 * The story properties whose text the search index holds behind their tag (migration 0048): those
 * some role may not see (field-level access, docs/property-access.md).
 */
export interface SearchRestrictedPropertiesTable {
  property: string;
}

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
