import type { StorageRunColumns } from "../../db/schema.js";

/** What a storage job's run shares (a move, an integrity check): its job, its error, who started it and when. */
export interface StorageRunFields {
  error: string | null;
  jobId: string | null;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

/** A run just queued by `createdBy`: no job yet, nothing failed, not finished. */
export function queuedRun(createdBy: string | null, now: string): StorageRunFields {
  return { error: null, jobId: null, createdBy, createdAt: now, updatedAt: now, finishedAt: null };
}

export function storageRunFields(row: StorageRunColumns): StorageRunFields {
  return {
    error: row.error,
    jobId: row.job_id,
    createdBy: row.created_by,
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
    finishedAt: row.finished_at === null ? null : String(row.finished_at),
  };
}

export function storageRunColumns(record: StorageRunFields): StorageRunColumns {
  return {
    error: record.error,
    job_id: record.jobId,
    created_by: record.createdBy,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
    finished_at: record.finishedAt,
  };
}
