import type { FastifyBaseLogger } from "fastify";
import { NotFound } from "../../http/errors.js";
import type { BlobStore } from "../blobs/blob-store.js";
import type { JobContext, JobHandler, JobResult } from "../jobs/job-types.js";
import { jobFailed, jobSkipped, jobSucceeded } from "../jobs/job-types.js";
import type { CheckRecord, IntegrityCheckRepository, ProblemRecord } from "./integrity-check.repository.js";
import { hashOf } from "./storage-moves.service.js";

export const INTEGRITY_CHECK_JOB = "storage.integrity-check";
/** Attempts before a check is failed for good (each one resumes after the last key saved). */
export const CHECK_ATTEMPTS = 5;
/** Problems kept per check; the counts go on past it. */
export const PROBLEMS_KEPT = 10_000;
const PAGE = 200;
/** Progress (and the cursor with it) is written at most this often. */
const SAVE_EVERY_MS = 500;

/** The registered blobs, in key order: what a check reads (the blobs module's registry). */
export interface RegisteredBlobs {
  rowsAfter(after: string | null, limit: number): Promise<{ key: string; sha256: string; size: number }[]>;
  count(): Promise<number>;
}

export interface IntegrityCheckDependencies {
  rows: IntegrityCheckRepository;
  /** The routing store: each key is read from the target it lives in. */
  store: BlobStore;
  registry: () => RegisteredBlobs;
  log?: FastifyBaseLogger;
  clock?: () => Date;
}

type Verdict = Omit<ProblemRecord, "foundAt"> | { kind: "ok"; size: number };

/** Reads one blob back and compares it with its registry row. */
async function verify(store: BlobStore, blob: { key: string; sha256: string; size: number }): Promise<Verdict> {
  const expected = { key: blob.key, expectedSha256: blob.sha256, expectedSize: blob.size };
  const missing = { ...expected, kind: "missing" as const, actualSha256: null, actualSize: null, detail: null };
  try {
    if (!(await store.stat(blob.key))) return missing;
    const actual = await hashOf(store, blob.key);
    if (actual.sha256 === blob.sha256 && actual.size === blob.size) return { kind: "ok", size: actual.size };
    return { ...expected, kind: "mismatched", actualSha256: actual.sha256, actualSize: actual.size, detail: null };
  } catch (error) {
    // Gone between the stat and the read.
    if (error instanceof NotFound) return missing;
    const detail = error instanceof Error ? error.message : String(error);
    return { ...expected, kind: "unreadable", actualSha256: null, actualSize: null, detail: detail.slice(0, 500) };
  }
}

/**
 * The durable job of an integrity check (storage.integrity-check { checkId }):
 * every registered blob in key order, read back whole from where it lives,
 * its SHA-256 and size compared with its row. Counts and the last key
 * checked are saved together, so a run after a crash goes on from there and
 * counts nothing twice (a problem is recorded once per key). A cancel
 * (the row's state) is seen between blobs.
 */
export function integrityCheckJob(deps: IntegrityCheckDependencies): JobHandler<typeof INTEGRITY_CHECK_JOB> {
  const now = () => (deps.clock?.() ?? new Date()).toISOString();
  return {
    name: INTEGRITY_CHECK_JOB,
    maxAttempts: CHECK_ATTEMPTS,
    timeoutMs: 24 * 60 * 60 * 1000,
    async run({ checkId }, context: JobContext): Promise<JobResult> {
      const check = await deps.rows.find(checkId);
      if (!check) return jobSkipped(`integrity check ${checkId} no longer exists`);
      if (!["queued", "running"].includes(check.state)) return jobSkipped(`integrity check ${checkId} has ended`);
      const registry = deps.registry();
      const progress: CheckRecord = { ...check };
      if (check.cursor === null) progress.totalFiles = await registry.count();
      await deps.rows.update(checkId, { state: "running", error: null, totalFiles: progress.totalFiles }, now());
      let lastSaved = Date.now();
      const save = async () => {
        lastSaved = Date.now();
        const { checkedFiles, checkedBytes, missing, mismatched, unreadable, cursor } = progress;
        // More blobs may have been registered since the check started.
        const totalFiles = Math.max(progress.totalFiles, checkedFiles);
        await deps.rows.update(
          checkId,
          { totalFiles, checkedFiles, checkedBytes, missing, mismatched, unreadable, cursor },
          now(),
        );
        await context.progress(Math.min(99, Math.floor((checkedFiles / Math.max(totalFiles, 1)) * 100)));
      };
      try {
        for (;;) {
          const page = await registry.rowsAfter(progress.cursor, PAGE);
          if (page.length === 0) break;
          for (const blob of page) {
            if (context.signal.aborted) throw context.signal.reason;
            const verdict = await verify(deps.store, blob);
            if (verdict.kind === "ok") {
              progress.checkedBytes += verdict.size;
            } else {
              if (progress.missing + progress.mismatched + progress.unreadable < PROBLEMS_KEPT) {
                await deps.rows.addProblem(checkId, { ...verdict, foundAt: now() });
              }
              progress[verdict.kind]++;
              deps.log?.warn(
                { checkId, key: blob.key, kind: verdict.kind },
                "integrity check: a blob is not as registered",
              );
            }
            progress.checkedFiles++;
            progress.cursor = blob.key;
            if (Date.now() - lastSaved > SAVE_EVERY_MS) {
              await save();
              if ((await deps.rows.find(checkId))?.state === "cancelled") return jobSkipped("cancelled");
            }
          }
        }
        await save();
        const ended = await deps.rows.find(checkId);
        if (ended?.state === "cancelled") return jobSkipped("cancelled");
        await deps.rows.update(checkId, { state: "succeeded", finishedAt: now() }, now());
        return jobSucceeded;
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        const last = context.attempt >= CHECK_ATTEMPTS;
        // What was checked before the failure stays counted: the next attempt goes on after it.
        await save().catch(() => {});
        if ((await deps.rows.find(checkId))?.state === "cancelled") return jobSkipped("cancelled");
        await deps.rows.update(
          checkId,
          { state: last ? "failed" : "queued", error: reason, ...(last ? { finishedAt: now() } : {}) },
          now(),
        );
        deps.log?.warn({ checkId, err: error }, "integrity check stopped");
        if (context.signal.aborted) throw error;
        return jobFailed(reason, { retry: !last });
      }
    },
  };
}
