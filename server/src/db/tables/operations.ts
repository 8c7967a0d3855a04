import type { ColumnType, Generated } from "kysely";

/** Jobs, blobs and storage, the network disk, ingest, the operation log and the video editor (jobs, blobs, storage, maintenance, disk, ingest, uploads, url-ingest, audit, video-edit). */

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

/** The columns a storage job's run shares (a move, an integrity check): its job, its error, who started it and when. */
export interface StorageRunColumns {
  error: string | null;
  job_id: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** A library's files moved to another storage target (migration 0034, modules/storage). */
export interface StorageMovesTable extends StorageRunColumns {
  id: string;
  library_id: string;
  target_id: string;
  state: "queued" | "running" | "succeeded" | "failed";
  total_files: number;
  moved_files: number;
  moved_bytes: number;
}

export interface StorageChecksTable extends StorageRunColumns {
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

/** What an ingest key made (migration 0023, modules/ingest): a retried ingest gets this story back. */
export interface IngestKeysTable {
  key: string;
  library_id: string;
  story_id: string;
  version_no: number;
  blob_key: string;
  created_at: string;
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
/** A library's quota (storage module, migration 0047): no row, no limit. */
export interface LibraryQuotasTable {
  library_id: string;
  quota_bytes: number;
  updated_by: string | null;
  updated_at: string;
}

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
