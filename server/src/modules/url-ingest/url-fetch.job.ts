import fs from "node:fs";
import path from "node:path";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { AppError } from "../../http/errors.js";
import { RefusedFileType, type SniffedType, sniffFile } from "../../media/sniff.js";
import { newOriginalKey } from "../blobs/blob-keys.js";
import type { BlobStore } from "../blobs/blob-store.js";
import type { BlobRow } from "../blobs/blobs.repository.js";
import { type JobDefinition, PermanentJobError } from "../jobs/job-types.js";
import type { StoriesService } from "../stories/stories.service.js";
import { FetchRefused } from "./address-policy.js";
import type { FetchProgress, SafeFetcher } from "./safe-fetcher.js";
import type { UrlIngestRepository } from "./url-ingest.repository.js";
import type { UrlFetchPayload } from "./url-ingest.service.js";

export const URL_FETCH_JOB = "url-ingest.fetch";
const MAX_ATTEMPTS = 3;
/** Progress rows are written at most this often while bytes stream. */
const PROGRESS_EVERY_MS = 500;

export interface UrlFetchJobDependencies {
  repository: UrlIngestRepository;
  fetcher: SafeFetcher;
  blobs: BlobStore;
  insertBlobRow: (row: BlobRow, transaction: Kysely<Database>) => Promise<void>;
  /** Late: the stories service is built after the job is defined. */
  stories: () => StoriesService;
  workDir: string;
  timeoutMs: number;
}

const KINDS = new Set(["photo", "video", "audio"]);

/** An HLS playlist is text; sniffing would call it that. Say what it is instead. */
function isHlsPlaylist(file: string, contentType: string | null): boolean {
  if (contentType && /mpegurl/i.test(contentType)) return true;
  const head = Buffer.alloc(16);
  const handle = fs.openSync(file, "r");
  try {
    const read = fs.readSync(handle, head, 0, head.length, 0);
    return head
      .subarray(0, read)
      .toString("latin1")
      .replace(/^\uFEFF/, "")
      .startsWith("#EXTM3U");
  } finally {
    fs.closeSync(handle);
  }
}

/** The stored name: the URL's last path segment with the extension the content has. */
function originalName(finalUrl: string, sniffed: SniffedType, suffix: string | null): string {
  const segment = decodeURIComponent(new URL(finalUrl).pathname.split("/").pop() ?? "").replace(/[\\/\0]/g, "");
  const base = segment.replace(/\.[A-Za-z0-9]{1,5}$/, "").slice(0, 200) || "download";
  return `${base}.${sniffed.extension || suffix || "bin"}`;
}

/**
 * Fetches one URL of the download centre into a blob and a draft story.
 * Idempotent: a fetch that already has its story is not fetched again.
 */
export function urlFetchJob(deps: UrlFetchJobDependencies): JobDefinition<UrlFetchPayload> {
  return {
    name: URL_FETCH_JOB,
    maxAttempts: MAX_ATTEMPTS,
    timeoutMs: deps.timeoutMs,
    async run({ fetchId }, { signal, progress, attempt }) {
      const row = await deps.repository.find(fetchId);
      if (!row || row.story_id) return;
      await deps.repository.update(fetchId, { state: "running", error: null, bytes_received: 0, speed: 0 });
      fs.mkdirSync(deps.workDir, { recursive: true });
      const file = path.join(deps.workDir, `${fetchId}-${attempt}`);
      let lastWrite = Date.now();
      let lastBytes = 0;
      let pending: Promise<void> = Promise.resolve();
      const onProgress = ({ bytes, total }: FetchProgress) => {
        const now = Date.now();
        if (now - lastWrite < PROGRESS_EVERY_MS) return;
        const speed = Math.round(((bytes - lastBytes) * 1000) / (now - lastWrite));
        [lastWrite, lastBytes] = [now, bytes];
        pending = pending
          .then(() => deps.repository.update(fetchId, { bytes_received: bytes, total_bytes: total, speed }))
          .then(() => (total ? progress(Math.min(99, Math.floor((bytes / total) * 100))) : undefined))
          .catch(() => undefined);
      };
      let blobKey: string | undefined;
      try {
        const fetched = await deps.fetcher.fetchToFile(row.url, file, { signal, onProgress });
        await pending;
        await deps.repository.update(fetchId, {
          bytes_received: fetched.size,
          total_bytes: fetched.size,
          speed: 0,
        });
        if (isHlsPlaylist(file, fetched.contentType))
          throw new FetchRefused(
            "Refused: this is an HLS playlist (.m3u8); the download centre fetches single image, video and audio files only.",
          );
        const sniffed = await sniffFile(file);
        if (row.type && KINDS.has(row.type) && row.type !== sniffed.kind)
          throw new FetchRefused(`Refused: a ${row.type} was expected, but the file is ${sniffed.mime}.`);
        const name = originalName(fetched.finalUrl, sniffed, row.suffix);
        blobKey = newOriginalKey();
        await deps.blobs.putFile(blobKey, file, { contentType: sniffed.mime });
        const key = blobKey;
        await deps.stories().createDraftFromUpload(
          {
            userId: row.user_id,
            libraryId: row.library_id,
            folderId: row.folder_id,
            type: sniffed.kind,
            blobKey: key,
            sha256: fetched.sha256,
            size: fetched.size,
            mime: sniffed.mime,
            originalName: name,
          },
          {
            enqueueProcessing: true,
            // The fetch is done exactly when its story exists: a job run again after a crash finds story_id and stops.
            withinTransaction: async (trx, story) => {
              await deps.insertBlobRow(
                {
                  key,
                  sha256: fetched.sha256,
                  size: fetched.size,
                  mime: sniffed.mime,
                  kind: sniffed.kind,
                  original_name: name,
                  created_by: row.user_id,
                  created_at: new Date().toISOString(),
                },
                trx,
              );
              await deps.repository.update(fetchId, { state: "done", story_id: story.id, error: null }, trx);
            },
          },
        );
        await progress(100);
      } catch (error) {
        await pending;
        if (blobKey) await deps.blobs.delete(blobKey).catch(() => undefined);
        // Refusals (address, type, size, access) will not change by trying again.
        const permanent =
          error instanceof FetchRefused || error instanceof RefusedFileType || error instanceof AppError;
        const reason = (error as Error).message;
        const last = permanent || attempt >= MAX_ATTEMPTS || signal.aborted;
        await deps.repository.update(fetchId, { state: last ? "failed" : "queued", error: reason, speed: 0 });
        throw permanent ? new PermanentJobError(reason) : error;
      } finally {
        fs.rmSync(file, { force: true });
      }
    },
  };
}
