import type { FastifyBaseLogger } from "fastify";
import type { JobContext, JobHandler, JobResult } from "../jobs/job-types.js";
import { jobFailed, jobSkipped, jobSucceeded } from "../jobs/job-types.js";
import type { StorageRepository } from "./storage.repository.js";
import { hashingTap, hashOf, type LibraryBlobs, MOVE_LIBRARY_JOB, type StoresById } from "./storage-moves.service.js";
import { BUILT_IN_TARGET } from "./target-stores.js";

/** Attempts before a move is failed for good (each one resumes where the last stopped). */
export const MOVE_ATTEMPTS = 5;
/** Later passes pick up files the library gained during the move (renditions made meanwhile). */
const MAX_PASSES = 3;

export interface MoveLibraryDependencies {
  rows: StorageRepository;
  stores: StoresById;
  blobs: LibraryBlobs;
  log?: FastifyBaseLogger;
  clock?: () => Date;
}

type FileOutcome = { kind: "moved"; bytes: number } | { kind: "there" } | { kind: "missing" };

/**
 * Moves one blob to `targetId`, safe to run again at any point: copy, verify
 * (size and SHA-256 read back from the target), switch the location (noting
 * the old one), delete the old copy, forget the old location. A run that
 * stopped after the switch finds the note and finishes the deletion.
 */
export async function moveBlob(
  deps: Pick<MoveLibraryDependencies, "rows" | "stores" | "clock">,
  key: string,
  targetId: string,
): Promise<FileOutcome> {
  const now = () => (deps.clock?.() ?? new Date()).toISOString();
  const settle = async (currentId: string) => {
    if (currentId === BUILT_IN_TARGET) await deps.rows.deleteLocation(key);
    else await deps.rows.setLocation(key, { targetId: currentId, previousTargetId: null }, now());
  };
  const location = await deps.rows.location(key);
  const currentId = location?.targetId ?? BUILT_IN_TARGET;
  if (location?.previousTargetId) {
    if (location.previousTargetId !== currentId) await (await deps.stores.of(location.previousTargetId)).delete(key);
    await settle(currentId);
  }
  if (currentId === targetId) return { kind: "there" };
  const source = await deps.stores.of(currentId);
  const target = await deps.stores.of(targetId);
  const stat = await source.stat(key);
  if (!stat) return { kind: "missing" };
  const { tap, result } = hashingTap();
  const input = await source.get(key);
  input.on("error", (error) => tap.destroy(error));
  await target.put(key, input.pipe(tap));
  const copied = result();
  const check = await hashOf(target, key);
  if (copied.size !== stat.size || check.size !== copied.size || check.sha256 !== copied.sha256) {
    await target.delete(key);
    throw new Error(
      `${key}: the copy did not verify (${stat.size} bytes expected, ${copied.size} read, ${check.size} stored; sha256 ${copied.sha256} read, ${check.sha256} stored)`,
    );
  }
  await deps.rows.setLocation(key, { targetId, previousTargetId: currentId }, now());
  await source.delete(key);
  await settle(targetId);
  return { kind: "moved", bytes: stat.size };
}

/** The durable job of a move (storage.move-library { moveId }): every file of the library, with progress. */
export function moveLibraryJob(deps: MoveLibraryDependencies): JobHandler<typeof MOVE_LIBRARY_JOB> {
  const now = () => (deps.clock?.() ?? new Date()).toISOString();
  return {
    name: MOVE_LIBRARY_JOB,
    maxAttempts: MOVE_ATTEMPTS,
    timeoutMs: 6 * 60 * 60 * 1000,
    async run({ moveId }, context: JobContext): Promise<JobResult> {
      const move = await deps.rows.move(moveId);
      if (!move) return jobSkipped(`move ${moveId} no longer exists`);
      if (move.state === "succeeded") return jobSkipped(`move ${moveId} has ended`);
      await deps.rows.updateMove(moveId, { state: "running", error: null }, now());
      let movedFiles = 0;
      let movedBytes = 0;
      let missing = 0;
      let lastSaved = 0;
      try {
        for (let pass = 1; pass <= MAX_PASSES; pass++) {
          const keys = await deps.blobs.blobKeysOfLibrary(move.libraryId);
          if (pass === 1) await deps.rows.updateMove(moveId, { totalFiles: keys.length, movedFiles: 0 }, now());
          let changed = 0;
          for (const [index, key] of keys.entries()) {
            if (context.signal.aborted) throw context.signal.reason;
            const outcome = await moveBlob(deps, key, move.targetId);
            if (outcome.kind === "moved") {
              changed++;
              movedBytes += outcome.bytes;
            }
            if (outcome.kind === "missing" && pass === 1) missing++;
            if (pass === 1) {
              movedFiles = index + 1;
              if (Date.now() - lastSaved > 500 || movedFiles === keys.length) {
                lastSaved = Date.now();
                await deps.rows.updateMove(moveId, { movedFiles, movedBytes }, now());
                await context.progress(Math.floor((movedFiles / Math.max(keys.length, 1)) * 100));
              }
            }
          }
          if (changed === 0 || pass === MAX_PASSES) break;
        }
        await deps.rows.updateMove(
          moveId,
          {
            state: "succeeded",
            movedBytes,
            error: missing > 0 ? `${missing} files were missing from their storage and were not moved` : null,
            finishedAt: now(),
          },
          now(),
        );
        return jobSucceeded;
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        const last = context.attempt >= MOVE_ATTEMPTS;
        await deps.rows.updateMove(
          moveId,
          { state: last ? "failed" : "queued", error: reason, ...(last ? { finishedAt: now() } : {}) },
          now(),
        );
        deps.log?.warn({ moveId, err: error }, "storage move stopped");
        if (context.signal.aborted) throw error;
        return jobFailed(reason, { retry: !last });
      }
    },
  };
}
