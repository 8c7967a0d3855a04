import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { AppError } from "../../http/errors.js";
import { RefusedFileType, type SniffedType, sniffFile } from "../../media/sniff.js";
import { newOriginalKey } from "../blobs/blob-keys.js";
import type { BlobStore } from "../blobs/blob-store.js";
import type { BlobRow } from "../blobs/blobs.repository.js";
import { JobAbortedError, type JobDefinition, PermanentJobError } from "../jobs/job-types.js";
import type { StoriesService } from "../stories/stories.service.js";
import { FetchRefused } from "./address-policy.js";
import { fetchHlsStream, type HlsProgress, isHlsPlaylist, remuxToMp4 } from "./hls.js";
import type { FetchedFile, FetchProgress, SafeFetcher } from "./safe-fetcher.js";
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
  hls: { maxSegments: number; timeoutMs: number };
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest("hex");
}

/** Why the job's signal aborted: a user's cancel, or the worker's own reasons (shutdown, lease lost, timeout). */
function abortCause(signal: AbortSignal): string | null {
  if (!signal.aborted) return null;
  return signal.reason instanceof JobAbortedError ? signal.reason.abortCause : "aborted";
}

const KINDS = new Set(["photo", "video", "audio"]);

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
      // Done already (a run after a crash), or cancelled by its user before it ran.
      if (!row || row.story_id || row.state === "cancelled") return;
      await deps.repository.update(fetchId, {
        state: "running",
        error: null,
        error_code: null,
        error_params: null,
        bytes_received: 0,
        speed: 0,
        segments_done: null,
        segments_total: null,
      });
      fs.mkdirSync(deps.workDir, { recursive: true });
      const file = path.join(deps.workDir, `${fetchId}-${attempt}`);
      const hlsDir = `${file}.hls`;
      let lastWrite = Date.now();
      let lastBytes = 0;
      let pending: Promise<void> = Promise.resolve();
      const onProgress = ({ bytes, total, ...segments }: FetchProgress & Partial<HlsProgress>) => {
        const now = Date.now();
        if (now - lastWrite < PROGRESS_EVERY_MS) return;
        const speed = Math.round(((bytes - lastBytes) * 1000) / (now - lastWrite));
        [lastWrite, lastBytes] = [now, bytes];
        const counted =
          segments.segmentsTotal === undefined
            ? {}
            : { segments_done: segments.segmentsDone ?? 0, segments_total: segments.segmentsTotal };
        pending = pending
          .then(() => deps.repository.update(fetchId, { bytes_received: bytes, total_bytes: total, speed, ...counted }))
          .then(() => (total ? progress(Math.min(99, Math.floor((bytes / total) * 100))) : undefined))
          .catch(() => undefined);
      };
      let blobKey: string | undefined;
      // An HLS stream also ends at its own wall-clock limit.
      const deadline = AbortSignal.timeout(deps.hls.timeoutMs);
      try {
        let fetched: FetchedFile = await deps.fetcher.fetchToFile(row.url, file, { signal, onProgress });
        await pending;
        await deps.repository.update(fetchId, {
          bytes_received: fetched.size,
          total_bytes: fetched.size,
          speed: 0,
        });
        let storedFile = file;
        let nameUrl = fetched.finalUrl;
        if (isHlsPlaylist(file, fetched.contentType)) {
          fs.mkdirSync(hlsDir, { recursive: true });
          const hlsSignal = AbortSignal.any([signal, deadline]);
          try {
            const stream = await fetchHlsStream({
              fetcher: deps.fetcher,
              playlistFile: file,
              playlistUrl: fetched.finalUrl,
              dir: hlsDir,
              limits: { maxBytes: deps.fetcher.maxBytes, maxSegments: deps.hls.maxSegments },
              signal: hlsSignal,
              onProgress,
            });
            await pending;
            await deps.repository.update(fetchId, {
              bytes_received: stream.bytes,
              total_bytes: stream.bytes,
              speed: 0,
              segments_done: stream.segments,
              segments_total: stream.segments,
            });
            storedFile = path.join(hlsDir, "joined.mp4");
            await remuxToMp4(stream.file, storedFile, hlsSignal, deps.hls.timeoutMs).catch((error: Error) => {
              if (hlsSignal.aborted) throw error;
              throw new FetchRefused(
                `Refused: the stream's segments could not be joined into one video (${error.message}).`,
                "fetch.hls.remuxFailed",
                { reason: error.message },
              );
            });
            const size = fs.statSync(storedFile).size;
            fetched = {
              finalUrl: stream.playlistUrl,
              size,
              sha256: await sha256Of(storedFile),
              contentType: "video/mp4",
            };
            nameUrl = stream.playlistUrl;
          } catch (error) {
            if (deadline.aborted && !signal.aborted) {
              const minutes = Math.round(deps.hls.timeoutMs / 60_000);
              throw new FetchRefused(
                `Refused: the stream took longer than ${minutes} minutes to fetch.`,
                "fetch.hls.timeout",
                { minutes },
              );
            }
            throw error;
          }
        }
        const sniffed = await sniffFile(storedFile);
        if (row.type && KINDS.has(row.type) && row.type !== sniffed.kind)
          throw new FetchRefused(
            `Refused: a ${row.type} was expected, but the file is ${sniffed.mime}.`,
            "fetch.typeMismatch",
            { expected: row.type, mime: sniffed.mime },
          );
        const name = originalName(nameUrl, sniffed, row.suffix);
        blobKey = newOriginalKey();
        await deps.blobs.putFile(blobKey, storedFile, { contentType: sniffed.mime });
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
              await deps.repository.update(
                fetchId,
                { state: "done", story_id: story.id, error: null, error_code: null, error_params: null },
                trx,
              );
            },
          },
        );
        await progress(100);
      } catch (error) {
        await pending;
        if (blobKey) await deps.blobs.delete(blobKey).catch(() => undefined);
        const cause = abortCause(signal);
        if (cause === "cancelled") {
          // The user's cancel: the row says so; the worker records the job as cancelled.
          await deps.repository.update(fetchId, { state: "cancelled", error: null, error_code: null, speed: 0 });
          throw signal.reason;
        }
        // Refusals (address, type, size, access) will not change by trying again.
        const permanent =
          error instanceof FetchRefused || error instanceof RefusedFileType || error instanceof AppError;
        const reason = (error as Error).message;
        const coded = error instanceof FetchRefused ? error : error instanceof AppError && error.msgCode ? error : null;
        const last = permanent || attempt >= MAX_ATTEMPTS || cause === "timeout";
        await deps.repository.update(fetchId, {
          state: last ? "failed" : "queued",
          error: reason,
          error_code: coded?.msgCode ?? null,
          error_params: coded?.msgCode ? JSON.stringify(coded.msgParams ?? {}) : null,
          speed: 0,
        });
        throw permanent ? new PermanentJobError(reason) : error;
      } finally {
        fs.rmSync(file, { force: true });
        fs.rmSync(hlsDir, { recursive: true, force: true });
      }
    },
  };
}
