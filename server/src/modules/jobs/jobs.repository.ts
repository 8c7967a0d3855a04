import { randomUUID } from "node:crypto";
import { type Kysely, type Selectable, sql } from "kysely";
import type { Db } from "../../db/database.js";
import type { Database, JobsTable } from "../../db/schema.js";
import type { JobState } from "./job-types.js";

export interface JobRecord {
  id: string;
  name: string;
  payload: unknown;
  state: JobState;
  attempts: number;
  maxAttempts: number;
  runAt: string;
  leaseOwner: string | null;
  leaseExpiresAt: string | null;
  progress: number;
  lastError: string | null;
  dedupeKey: string | null;
  storyId: string | null;
  cancelRequested: boolean;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  updatedAt: string;
}

/** A claim on a running job: every write the worker makes is fenced by it. */
export interface Lease {
  jobId: string;
  owner: string;
}

export interface NewJob {
  name: string;
  payload: unknown;
  maxAttempts: number;
  runAt: string;
  dedupeKey: string | null;
  storyId?: string | null;
}

/** How a running job ends (or goes back to the queue). */
export interface JobOutcome {
  state: Exclude<JobState, "running">;
  lastError?: string | null;
  runAt?: string;
  progress?: number;
}

export interface JobFilter {
  state?: JobState;
  name?: string;
  /** A part of the name or of the last error, any case. */
  keyword?: string;
  page: number;
  size: number;
}

/** Which of a story's jobs (newest first). */
export interface StoryJobFilter {
  name?: string;
  states?: JobState[];
  /** Created at or after this time (ISO). */
  since?: string;
  limit: number;
}

const ACTIVE_DEDUPE = sql<boolean>`state in ('queued', 'running') and dedupe_key is not null`;
export const LOST_WORKER_REASON = "the worker running the last attempt was lost (its lease expired)";

/** The SQL of the job queue; the rules (states, backoff) are JobQueue's. */
export class JobsRepository {
  constructor(private readonly db: Db) {}

  #toRecord(row: Selectable<JobsTable>): JobRecord {
    return {
      id: row.id,
      name: row.name,
      payload: this.db.adapter.readJson(row.payload),
      state: row.state,
      attempts: row.attempts,
      maxAttempts: row.max_attempts,
      runAt: row.run_at,
      leaseOwner: row.lease_owner,
      leaseExpiresAt: row.lease_expires_at,
      progress: row.progress,
      lastError: row.last_error,
      dedupeKey: row.dedupe_key,
      storyId: row.story_id,
      cancelRequested: this.db.adapter.readBoolean(row.cancel_requested),
      createdAt: row.created_at,
      startedAt: row.started_at,
      finishedAt: row.finished_at,
      updatedAt: row.updated_at,
    };
  }

  /**
   * Inserts a job, or returns the id of the queued or running job with the
   * same name and dedupe key. `executor` may be a transaction.
   */
  async insert(job: NewJob, now: string, executor: Kysely<Database> = this.db.kysely): Promise<string> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const inserted = await executor
        .insertInto("jobs")
        .values({
          id: randomUUID(),
          name: job.name,
          payload: this.db.adapter.writeJson(job.payload),
          state: "queued",
          attempts: 0,
          max_attempts: job.maxAttempts,
          run_at: job.runAt,
          lease_owner: null,
          lease_expires_at: null,
          progress: 0,
          last_error: null,
          dedupe_key: job.dedupeKey,
          story_id: job.storyId ?? null,
          cancel_requested: false,
          created_at: now,
          started_at: null,
          finished_at: null,
          updated_at: now,
        })
        .onConflict((conflict) => conflict.columns(["name", "dedupe_key"]).where(ACTIVE_DEDUPE).doNothing())
        .returning("id")
        .executeTakeFirst();
      if (inserted) return inserted.id;
      const existing = await executor
        .selectFrom("jobs")
        .select("id")
        .where("name", "=", job.name)
        .where("dedupe_key", "=", job.dedupeKey)
        .where("state", "in", ["queued", "running"])
        .executeTakeFirst();
      if (existing) return existing.id;
      // The duplicate ended between the two statements: insert again.
    }
    throw new Error(`could not enqueue ${job.name}: its dedupe key kept conflicting`);
  }

  /**
   * Claims up to `limit` due jobs of the given names: queued ones whose time
   * has come, and running ones whose lease expired (their worker was lost).
   * One UPDATE statement: on PostgreSQL its select skips rows another
   * claimer holds; on SQLite the statement runs under the single write lock.
   */
  async claim(names: string[], limit: number, owner: string, now: string, leaseUntil: string): Promise<JobRecord[]> {
    if (names.length === 0 || limit <= 0) return [];
    const due = this.db.adapter.skipLocked(
      this.db.kysely
        .selectFrom("jobs")
        .select("id")
        .where("name", "in", names)
        .where((eb) =>
          eb.or([
            eb.and([eb("state", "=", "queued"), eb("run_at", "<=", now)]),
            eb.and([
              eb("state", "=", "running"),
              eb("lease_expires_at", "<", now),
              eb("cancel_requested", "=", false),
              eb("attempts", "<", eb.ref("max_attempts")),
            ]),
          ]),
        )
        .orderBy("run_at")
        .orderBy("created_at")
        .limit(limit),
    );
    const rows = await this.db.kysely
      .updateTable("jobs")
      .set((eb) => ({
        state: "running",
        attempts: eb("attempts", "+", 1),
        lease_owner: owner,
        lease_expires_at: leaseUntil,
        started_at: now,
        updated_at: now,
      }))
      .where("id", "in", due)
      .returningAll()
      .execute();
    return rows.map((row) => this.#toRecord(row));
  }

  /** Ends the running jobs whose worker was lost and that must not run again; the ones now dead are returned. */
  async settleExpired(now: string): Promise<{ settled: number; dead: JobRecord[] }> {
    const expired = (query: ReturnType<typeof this.updateJobs>) =>
      query.where("state", "=", "running").where("lease_expires_at", "<", now);
    const cancelled = await expired(this.updateJobs())
      .set({ state: "cancelled", lease_owner: null, lease_expires_at: null, finished_at: now, updated_at: now })
      .where("cancel_requested", "=", true)
      .executeTakeFirst();
    const dead = await expired(this.updateJobs())
      .set({
        state: "dead",
        last_error: LOST_WORKER_REASON,
        lease_owner: null,
        lease_expires_at: null,
        finished_at: now,
        updated_at: now,
      })
      .where((eb) => eb("attempts", ">=", eb.ref("max_attempts")))
      .returningAll()
      .execute();
    return { settled: Number(cancelled.numUpdatedRows) + dead.length, dead: dead.map((row) => this.#toRecord(row)) };
  }

  private updateJobs() {
    return this.db.kysely.updateTable("jobs");
  }

  #fenced(lease: Lease) {
    return this.updateJobs()
      .where("id", "=", lease.jobId)
      .where("lease_owner", "=", lease.owner)
      .where("state", "=", "running");
  }

  /** Extends a lease; undefined when it was lost (expired and taken, or released). */
  async renew(lease: Lease, leaseUntil: string, now: string): Promise<{ cancelRequested: boolean } | undefined> {
    const row = await this.#fenced(lease)
      .set({ lease_expires_at: leaseUntil, updated_at: now })
      .returning("cancel_requested")
      .executeTakeFirst();
    return row ? { cancelRequested: this.db.adapter.readBoolean(row.cancel_requested) } : undefined;
  }

  async setProgress(lease: Lease, progress: number, now: string): Promise<boolean> {
    const result = await this.#fenced(lease).set({ progress, updated_at: now }).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Ends the attempt held by `lease`. With `unlessCancelRequested`, nothing
   * happens when a cancel was requested meanwhile (the caller then cancels).
   */
  async finish(lease: Lease, outcome: JobOutcome, now: string, unlessCancelRequested = false): Promise<boolean> {
    let query = this.#fenced(lease).set({
      state: outcome.state,
      lease_owner: null,
      lease_expires_at: null,
      updated_at: now,
      finished_at: outcome.state === "queued" ? null : now,
      ...(outcome.lastError !== undefined ? { last_error: outcome.lastError } : {}),
      ...(outcome.runAt !== undefined ? { run_at: outcome.runAt } : {}),
      ...(outcome.progress !== undefined ? { progress: outcome.progress } : {}),
    });
    if (unlessCancelRequested) query = query.where("cancel_requested", "=", false);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Gives a job back to the queue without counting the attempt (graceful stop). */
  async release(lease: Lease, now: string): Promise<boolean> {
    const result = await this.#fenced(lease)
      .set((eb) => ({
        state: "queued",
        attempts: eb("attempts", "-", 1),
        lease_owner: null,
        lease_expires_at: null,
        run_at: now,
        updated_at: now,
      }))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async findById(id: string): Promise<JobRecord | undefined> {
    const row = await this.db.kysely.selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? this.#toRecord(row) : undefined;
  }

  async list(filter: JobFilter): Promise<{ content: JobRecord[]; total: number }> {
    let query = this.db.kysely.selectFrom("jobs");
    if (filter.state) query = query.where("state", "=", filter.state);
    if (filter.name) query = query.where("name", "=", filter.name);
    if (filter.keyword) {
      const pattern = `%${filter.keyword.toLowerCase()}%`;
      query = query.where((eb) =>
        eb.or([eb(eb.fn("lower", ["name"]), "like", pattern), eb(eb.fn("lower", ["last_error"]), "like", pattern)]),
      );
    }
    const [rows, count] = await Promise.all([
      query
        .selectAll()
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(filter.size)
        .offset(filter.page * filter.size)
        .execute(),
      query.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow(),
    ]);
    return { content: rows.map((row) => this.#toRecord(row)), total: Number(count.total) };
  }

  /** The jobs of one story, by `story_id` (indexed with created_at), newest first. */
  async ofStory(storyId: string, filter: StoryJobFilter): Promise<JobRecord[]> {
    let query = this.db.kysely.selectFrom("jobs").selectAll().where("story_id", "=", storyId);
    if (filter.name) query = query.where("name", "=", filter.name);
    if (filter.states) query = query.where("state", "in", filter.states);
    if (filter.since) query = query.where("created_at", ">=", filter.since);
    const rows = await query.orderBy("created_at", "desc").orderBy("id", "desc").limit(filter.limit).execute();
    return rows.map((row) => this.#toRecord(row));
  }

  async countByState(): Promise<Partial<Record<JobState, number>>> {
    const rows = await this.db.kysely
      .selectFrom("jobs")
      .select((eb) => ["state", eb.fn.countAll<number>().as("count")])
      .groupBy("state")
      .execute();
    return Object.fromEntries(rows.map((row) => [row.state, Number(row.count)]));
  }

  /** Deletes jobs of `states` that finished before `before`; returns how many. */
  async deleteFinished(states: JobState[], before: string): Promise<number> {
    const result = await this.db.kysely
      .deleteFrom("jobs")
      .where("state", "in", states)
      .where("finished_at", "<", before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** queued → cancelled; false when the job is not queued. */
  async cancelQueued(id: string, now: string): Promise<boolean> {
    const result = await this.updateJobs()
      .set({ state: "cancelled", finished_at: now, updated_at: now })
      .where("id", "=", id)
      .where("state", "=", "queued")
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Flags a running job; its worker aborts it on its next heartbeat (or at once, in-process). */
  async requestCancel(id: string, now: string): Promise<boolean> {
    const result = await this.updateJobs()
      .set({ cancel_requested: true, updated_at: now })
      .where("id", "=", id)
      .where("state", "=", "running")
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * dead or cancelled → queued with fresh attempts; false when the job is in
   * another state or an identical job (same name and dedupe key) is active.
   */
  async requeue(id: string, now: string): Promise<boolean> {
    const result = await this.updateJobs()
      .set({
        state: "queued",
        attempts: 0,
        run_at: now,
        progress: 0,
        cancel_requested: false,
        started_at: null,
        finished_at: null,
        updated_at: now,
      })
      .where("id", "=", id)
      .where("state", "in", ["dead", "cancelled"])
      .where((eb) =>
        eb.or([
          eb("dedupe_key", "is", null),
          eb.not(
            eb.exists(
              eb
                .selectFrom("jobs as active")
                .select("active.id")
                .whereRef("active.name", "=", "jobs.name")
                .whereRef("active.dedupe_key", "=", "jobs.dedupe_key")
                .where("active.state", "in", ["queued", "running"]),
            ),
          ),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
