import { createHash, randomUUID } from "node:crypto";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Kysely } from "kysely";
import type { Db } from "../../db/database.js";
import type { Database } from "../../db/schema.js";
import { Conflict, NotFound } from "../../http/errors.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { Actor } from "../auth/actor.js";
import type { BlobStore } from "../blobs/blob-store.js";
import type { JobEnqueuer } from "../jobs/job-types.js";
import type { MoveRecord, StorageRepository } from "./storage.repository.js";
import { queuedRun } from "./storage-run.js";
import type { StorageLibraries, StorageTargetsService } from "./storage-targets.service.js";

export const MOVE_LIBRARY_JOB = "storage.move-library";

/** The blob keys a library's stories use (the stories module's StoryStatistics answers). */
export interface LibraryBlobs {
  blobKeysOfLibrary(libraryId: string): Promise<string[]>;
  /** Every stored byte of the library's stories (its quota's usage), through `executor` when given. */
  libraryBytes(libraryId: string, executor?: Kysely<Database>): Promise<number>;
}

/** The stores of targets by id (TargetStores; a test passes one that fails on purpose). */
export interface StoresById {
  of(targetId: string): Promise<BlobStore>;
}

export interface MoveView {
  id: string;
  libraryId: string;
  targetId: string;
  targetName: string;
  state: MoveRecord["state"];
  totalFiles: number;
  movedFiles: number;
  movedBytes: number;
  error: string | null;
  createTime: string;
  finishTime: string | null;
}

export interface StorageMovesDependencies {
  db: Db;
  rows: StorageRepository;
  targets: StorageTargetsService;
  libraries: () => StorageLibraries;
  blobs: LibraryBlobs;
  jobs: JobEnqueuer;
  audit: AuditLog;
  clock?: () => Date;
}

/**
 * Which target each library's new originals go to, and moving a library's
 * files to another target (/manage/storage/setting).
 */
export class StorageMovesService {
  constructor(private readonly deps: StorageMovesDependencies) {}

  async settings() {
    const [targets, defaultTargetId, libraries, moves] = await Promise.all([
      this.deps.targets.list(),
      this.deps.targets.defaultTargetId(),
      this.deps.libraries().list(),
      this.deps.rows.latestMoves(),
    ]);
    const names = new Map(targets.map((target) => [target.id, target.name]));
    const latest = new Map(moves.map((move) => [move.libraryId, move]));
    return {
      defaultTargetId,
      targets: targets.map(({ id, name, kind }) => ({ id, name, kind })),
      libraries: libraries.map((library) => {
        const move = latest.get(library.id);
        return {
          libraryId: library.id,
          name: library.name,
          bucketId: library.bucketId,
          targetId: library.bucketId ?? defaultTargetId,
          move: move ? this.#view(move, names) : null,
        };
      }),
    };
  }

  /**
   * Where a library's new originals go: its own target, else the default. `bucketId` is the
   * library's, when the caller has just read it (an ingest, from the library's rules).
   */
  async targetOfLibrary(libraryId: string, bucketId?: string | null): Promise<string> {
    const bucket = bucketId !== undefined ? bucketId : (await this.deps.libraries().get(libraryId)).bucketId;
    return bucket ?? (await this.deps.targets.defaultTargetId());
  }

  /** Sets the target of a library's new originals (null: the default); the target must pass its test. */
  async setLibraryTarget(actor: Actor, libraryId: string, targetId: string | null): Promise<void> {
    await this.deps.libraries().get(libraryId);
    if (targetId !== null) await this.deps.targets.requireWorking(targetId);
    await this.deps.libraries().setBucket(actor, libraryId, targetId);
  }

  /**
   * Moves every file of a library to `targetId` as a durable job; its new
   * originals go there from now on. One move per library at a time.
   */
  async startMove(actor: Actor, libraryId: string, targetId: string): Promise<MoveView> {
    const library = await this.deps.libraries().get(libraryId);
    const target = await this.deps.targets.requireWorking(targetId);
    if (await this.deps.rows.activeMoveOf(libraryId)) {
      throw new Conflict(
        `the library ${library.name} is already being moved; wait for that move to end`,
        "move_in_progress",
      ).withMessageCode("storage.moveInProgress", { name: library.name });
    }
    if (library.bucketId !== targetId) await this.deps.libraries().setBucket(actor, libraryId, targetId);
    const now = this.#now();
    const id = randomUUID();
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      await this.deps.rows.with(trx).insertMove({
        id,
        libraryId,
        targetId,
        state: "queued",
        totalFiles: 0,
        movedFiles: 0,
        movedBytes: 0,
        ...queuedRun(actor.id, now),
      });
      const jobId = await this.deps.jobs.enqueue(MOVE_LIBRARY_JOB, { moveId: id }, { transaction: trx });
      await this.deps.rows.with(trx).updateMove(id, { jobId }, now);
      await this.deps.audit.record(trx, actor, {
        action: "storage.move",
        target: { type: "library", id: libraryId, label: library.name },
        after: { targetId, targetName: target.name || "builtin", moveId: id },
      });
    });
    return this.get(id);
  }

  async get(id: string): Promise<MoveView> {
    const move = await this.deps.rows.move(id);
    if (!move) throw new NotFound(`move ${id} does not exist`, "move_not_found");
    const names = new Map((await this.deps.targets.list()).map((target) => [target.id, target.name]));
    return this.#view(move, names);
  }

  #view(move: MoveRecord, names: Map<string, string>): MoveView {
    return {
      id: move.id,
      libraryId: move.libraryId,
      targetId: move.targetId,
      targetName: names.get(move.targetId) ?? "",
      state: move.state,
      totalFiles: move.totalFiles,
      movedFiles: move.movedFiles,
      movedBytes: move.movedBytes,
      error: move.error,
      createTime: move.createdAt,
      finishTime: move.finishedAt,
    };
  }

  #now(): string {
    return (this.deps.clock?.() ?? new Date()).toISOString();
  }
}

/** Reads a blob whole and answers its SHA-256 and size. */
export async function hashOf(store: BlobStore, key: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash("sha256");
  let size = 0;
  await pipeline(await store.get(key), async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) {
      hash.update(chunk);
      size += chunk.length;
    }
  });
  return { sha256: hash.digest("hex"), size };
}

/** A pass-through that hashes and counts what flows through it. */
export function hashingTap(): { tap: Transform; result: () => { sha256: string; size: number } } {
  const hash = createHash("sha256");
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      size += chunk.length;
      callback(null, chunk);
    },
  });
  return { tap, result: () => ({ sha256: hash.digest("hex"), size }) };
}
