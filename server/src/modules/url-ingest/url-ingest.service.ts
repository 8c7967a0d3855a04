import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { AppError, Conflict, Invalid, type MessageParams, NotFound } from "../../http/errors.js";
import type { LibraryUser } from "../access/library-access.js";
import type { JobEnqueuer } from "../jobs/job-types.js";
import type { LibraryRecord } from "../libraries/libraries.repository.js";
import { FetchRefused } from "./address-policy.js";
import type { UrlFetchRow, UrlIngestRepository } from "./url-ingest.repository.js";
import type { FetchBody, UrlFetchView } from "./url-ingest.schema.js";

export const DEFAULT_FETCH_LIBRARY = "material";

export interface UrlIngestServiceDependencies {
  repository: UrlIngestRepository;
  /** Checks the library (write access) and the folder before anything is queued. */
  libraries: { require(user: LibraryUser, libraryId: string, level: "write"): Promise<LibraryRecord> };
  folders: { require(libraryId: string, folderId: string): Promise<unknown> };
  /** Resolves and checks a URL's host, for an early refusal (the fetch checks every hop again). */
  checkUrl(url: string): Promise<URL>;
  /** Enqueues "url-ingest.fetch" and cancels it. */
  jobs: JobEnqueuer & { cancel(jobId: string): Promise<unknown> };
  transaction<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T>;
}

/** Percent done: 100 once the story exists, else by segments (HLS) or the announced size (at most 99). */
export function progressOf(row: UrlFetchRow): number {
  if (row.state === "done") return 100;
  if (row.segments_total) return Math.min(99, Math.floor(((row.segments_done ?? 0) / row.segments_total) * 100));
  const total = row.total_bytes === null ? null : Number(row.total_bytes);
  if (!total) return 0;
  return Math.min(99, Math.floor((Number(row.bytes_received) / total) * 100));
}

function parseParams(text: string | null): MessageParams | null {
  if (text === null) return null;
  try {
    return JSON.parse(text) as MessageParams;
  } catch {
    return null;
  }
}

export function toView(row: UrlFetchRow): UrlFetchView {
  return {
    id: row.id,
    url: row.url,
    libraryId: row.library_id,
    folderId: row.folder_id,
    type: row.type,
    state: row.state,
    progress: progressOf(row),
    bytes: Number(row.bytes_received),
    total: row.total_bytes === null ? null : Number(row.total_bytes),
    speed: Number(row.speed),
    error: row.error,
    errorCode: row.error_code,
    errorParams: parseParams(row.error_params),
    segmentsDone: row.segments_done === null ? null : Number(row.segments_done),
    segmentsTotal: row.segments_total === null ? null : Number(row.segments_total),
    storyId: row.story_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The download centre's rules: who may fetch what into where; the fetching itself is the job's. */
export class UrlIngestService {
  constructor(private readonly deps: UrlIngestServiceDependencies) {}

  async start(user: LibraryUser, body: FetchBody): Promise<UrlFetchView> {
    const libraryId = body.libraryId ?? DEFAULT_FETCH_LIBRARY;
    await this.deps.libraries.require(user, libraryId, "write");
    if (body.folderId) await this.deps.folders.require(libraryId, body.folderId);
    let url: URL;
    try {
      url = await this.deps.checkUrl(body.url);
    } catch (error) {
      if (error instanceof FetchRefused)
        throw new Invalid(`url: ${error.message}`, "url_refused").withMessageCode(error.msgCode, error.msgParams);
      throw error;
    }
    const id = randomUUID();
    await this.deps.transaction(async (trx) => {
      await this.deps.repository.insert(
        {
          id,
          userId: user.id,
          url: url.toString(),
          libraryId,
          folderId: body.folderId ?? null,
          type: body.type ?? null,
          suffix: body.suffix?.replace(/^\./, "") ?? null,
        },
        trx,
      );
      const jobId = await this.deps.jobs.enqueue(
        "url-ingest.fetch",
        { fetchId: id },
        { transaction: trx, dedupeKey: `url:${id}` },
      );
      await this.deps.repository.update(id, { job_id: jobId }, trx);
    });
    return toView((await this.deps.repository.find(id))!);
  }

  /** The user's latest fetch of `url` (as sent, or as normalised when it was started). */
  async rate(user: LibraryUser, url: string): Promise<UrlFetchView> {
    let row = await this.deps.repository.latestOf(user.id, url);
    if (!row && URL.canParse(url)) row = await this.deps.repository.latestOf(user.id, new URL(url).toString());
    if (!row) throw new NotFound("url: you have not asked for this URL to be fetched");
    return toView(row);
  }

  async list(user: LibraryUser, page: number, size: number) {
    const { rows, total } = await this.deps.repository.pageOf(user.id, page, size);
    return { content: rows.map(toView), totalElements: total, size, number: page };
  }

  async retry(user: LibraryUser, id: string): Promise<UrlFetchView> {
    const row = await this.deps.repository.find(id);
    if (!row || row.user_id !== user.id) throw new NotFound("no fetch of yours has this id");
    if (row.state !== "failed" && row.state !== "cancelled")
      throw new Conflict(
        `this fetch is ${row.state}; only a failed or cancelled fetch is retried`,
        "fetch_not_retryable",
      ).withMessageCode("fetch.notRetryable", { state: row.state });
    await this.deps.libraries.require(user, row.library_id, "write");
    await this.deps.transaction(async (trx) => {
      const jobId = await this.deps.jobs.enqueue(
        "url-ingest.fetch",
        { fetchId: id },
        { transaction: trx, dedupeKey: `url:${id}` },
      );
      await this.deps.repository.update(
        id,
        {
          state: "queued",
          job_id: jobId,
          error: null,
          error_code: null,
          error_params: null,
          bytes_received: 0,
          total_bytes: null,
          speed: 0,
          segments_done: null,
          segments_total: null,
        },
        trx,
      );
    });
    return toView((await this.deps.repository.find(id))!);
  }

  /**
   * Stops a queued or running fetch of the user's: a queued job is cancelled
   * at once, a running one has its signal aborted (the fetcher's sockets and
   * ffmpeg stop, its temporary files go). Nothing is stored; retry fetches it again.
   */
  async cancel(user: LibraryUser, id: string): Promise<UrlFetchView> {
    const row = await this.deps.repository.find(id);
    if (!row || row.user_id !== user.id) throw new NotFound("no fetch of yours has this id");
    if (row.state !== "queued" && row.state !== "running")
      throw new Conflict(
        `this fetch is ${row.state}; only a queued or running fetch is cancelled`,
        "fetch_not_cancellable",
      ).withMessageCode("fetch.notCancellable", { state: row.state });
    if (row.job_id) {
      try {
        await this.deps.jobs.cancel(row.job_id);
      } catch (error) {
        // The job ended between the read and the cancel: the fetch is done or failed now.
        if (!(error instanceof AppError)) throw error;
        const now = (await this.deps.repository.find(id))!;
        throw new Conflict(
          `this fetch is ${now.state}; only a queued or running fetch is cancelled`,
          "fetch_not_cancellable",
        ).withMessageCode("fetch.notCancellable", { state: now.state });
      }
    }
    await this.deps.repository.markCancelled(id);
    return toView((await this.deps.repository.find(id))!);
  }
}
