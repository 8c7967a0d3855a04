import fs from "node:fs";
import path from "node:path";
import { AppError } from "../../http/errors.js";
import type { MediaTools } from "../../media/index.js";
import { type MediaKind, RefusedFileType, type SniffedType } from "../../media/sniff.js";
import { type IngestService, IngestTypeMismatch } from "../ingest/ingest.service.js";
import { JobAbortedError, type JobHandler, jobFailed, jobSkipped, jobSucceeded } from "../jobs/job-types.js";
import { FetchRefused } from "./address-policy.js";
import { fetchHlsStream, type HlsProgress, isHlsPlaylist } from "./hls.js";
import type { FetchedFile, FetchProgress, SafeFetcher } from "./safe-fetcher.js";
import type { UrlIngestRepository } from "./url-ingest.repository.js";

const MAX_ATTEMPTS = 3;
/** Progress rows are written at most this often while bytes stream. */
const PROGRESS_EVERY_MS = 500;

export interface UrlFetchJobDependencies {
  repository: UrlIngestRepository;
  fetcher: SafeFetcher;
  /** Joins an HLS stream's segments into one MP4. */
  media: Pick<MediaTools, "remuxToMp4">;
  /** The fetched file becomes a draft story. */
  ingest: Pick<IngestService, "ingestFile">;
  workDir: string;
  timeoutMs: number;
  hls: { maxSegments: number; timeoutMs: number };
}

/** Why the job's signal aborted: a user's cancel, or the worker's own reasons (shutdown, lease lost, timeout). */
function abortCause(signal: AbortSignal): string | null {
  if (!signal.aborted) return null;
  return signal.reason instanceof JobAbortedError ? signal.reason.abortCause : "aborted";
}

const KINDS = new Set<string>(["photo", "video", "audio"]);

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
export function urlFetchJob(deps: UrlFetchJobDependencies): JobHandler<"url-ingest.fetch"> {
  return {
    name: "url-ingest.fetch",
    maxAttempts: MAX_ATTEMPTS,
    timeoutMs: deps.timeoutMs,
    async run({ fetchId }, { signal, progress, attempt }) {
      const row = await deps.repository.find(fetchId);
      // Done already (a run after a crash), or cancelled by its user before it ran.
      if (!row) return jobSkipped(`fetch ${fetchId} is gone`);
      if (row.story_id) return jobSkipped(`fetch ${fetchId} has its story already`);
      if (row.state === "cancelled") return jobSkipped(`fetch ${fetchId} was cancelled`);
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
      // An HLS stream also ends at its own wall-clock limit.
      const deadline = AbortSignal.timeout(deps.hls.timeoutMs);
      try {
        const fetched: FetchedFile = await deps.fetcher.fetchToFile(row.url, file, { signal, onProgress });
        await pending;
        await deps.repository.update(fetchId, {
          bytes_received: fetched.size,
          total_bytes: fetched.size,
          speed: 0,
        });
        let storedFile = file;
        let nameUrl = fetched.finalUrl;
        /** Known when the fetcher hashed the bytes it wrote; a remuxed stream is hashed by the ingest. */
        let sha256: string | undefined = fetched.sha256;
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
            await deps.media
              .remuxToMp4(stream.file, storedFile, { signal: hlsSignal, timeoutMs: deps.hls.timeoutMs })
              .catch((error: Error) => {
                if (hlsSignal.aborted) throw error;
                throw new FetchRefused(
                  `Refused: the stream's segments could not be joined into one video (${error.message}).`,
                  "fetch.hls.remuxFailed",
                  { reason: error.message },
                );
              });
            sha256 = undefined;
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
        await deps.ingest
          .ingestFile({
            source: { file: storedFile, sha256 },
            originalName: (content) => originalName(nameUrl, content, row.suffix),
            declaredType: row.type && KINDS.has(row.type) ? (row.type as MediaKind) : undefined,
            userId: row.user_id,
            libraryId: row.library_id,
            folderId: row.folder_id,
            // The fetch is done exactly when its story exists: a job run again after a crash finds story_id and stops.
            withinTransaction: (trx, story) =>
              deps.repository.update(
                fetchId,
                { state: "done", story_id: story.id, error: null, error_code: null, error_params: null },
                trx,
              ),
          })
          .catch((error: unknown) => {
            if (!(error instanceof IngestTypeMismatch)) throw error;
            const { declared, content } = error;
            throw new FetchRefused(
              `Refused: a ${declared} was expected, but the file is ${content.mime}.`,
              "fetch.typeMismatch",
              { expected: declared, mime: content.mime },
            );
          });
        await progress(100);
        return jobSucceeded;
      } catch (error) {
        await pending;
        const cause = abortCause(signal);
        if (cause === "cancelled") {
          // The user's cancel: the row says so; the worker records the job as cancelled (the signal's cause decides).
          await deps.repository.update(fetchId, { state: "cancelled", error: null, error_code: null, speed: 0 });
          return jobFailed("cancelled by its user", { retry: false });
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
        return jobFailed(reason, { retry: !permanent });
      } finally {
        fs.rmSync(file, { force: true });
        fs.rmSync(hlsDir, { recursive: true, force: true });
      }
    },
  };
}
