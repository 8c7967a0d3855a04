import type { Db } from "../../db/database.js";
import type { JobState } from "./job-types.js";

/** How many jobs of one name are in one state. */
export interface JobCount {
  name: string;
  state: JobState;
  count: number;
}

/** A worker process as its last heartbeat left it. */
export interface WorkerRecord {
  id: string;
  host: string;
  pid: number;
  concurrency: number;
  running: number;
  startedAt: string;
  lastSeenAt: string;
  stoppedAt: string | null;
}

/** The task monitor's SQL: jobs counted by name and state, and the workers' heartbeats. */
export class JobsMonitorRepository {
  constructor(private readonly db: Db) {}

  /** One GROUP BY over (name, state); the jobs table holds what pruning leaves (docs/jobs.md). */
  async countByNameAndState(): Promise<JobCount[]> {
    const rows = await this.db.kysely
      .selectFrom("jobs")
      .select((eb) => ["name", "state", eb.fn.countAll<number | string>().as("count")])
      .groupBy(["name", "state"])
      .orderBy("name")
      .orderBy("state")
      .execute();
    return rows.map((row) => ({ name: row.name, state: row.state, count: Number(row.count) }));
  }

  async beat(worker: Omit<WorkerRecord, "lastSeenAt" | "stoppedAt">, now: string): Promise<void> {
    await this.db.kysely
      .insertInto("job_workers")
      .values({
        id: worker.id,
        host: worker.host,
        pid: worker.pid,
        concurrency: worker.concurrency,
        running: worker.running,
        started_at: worker.startedAt,
        last_seen_at: now,
        stopped_at: null,
      })
      .onConflict((conflict) =>
        conflict.column("id").doUpdateSet({ running: worker.running, last_seen_at: now, stopped_at: null }),
      )
      .execute();
  }

  async stopped(id: string, now: string): Promise<void> {
    await this.db.kysely
      .updateTable("job_workers")
      .set({ running: 0, last_seen_at: now, stopped_at: now })
      .where("id", "=", id)
      .execute();
  }

  /** Workers seen at or after `since`, most recently seen first. */
  async workers(since: string): Promise<WorkerRecord[]> {
    const rows = await this.db.kysely
      .selectFrom("job_workers")
      .selectAll()
      .where("last_seen_at", ">=", since)
      .orderBy("last_seen_at", "desc")
      .orderBy("id")
      .limit(200)
      .execute();
    return rows.map((row) => ({
      id: row.id,
      host: row.host,
      pid: row.pid,
      concurrency: row.concurrency,
      running: row.running,
      startedAt: row.started_at,
      lastSeenAt: row.last_seen_at,
      stoppedAt: row.stopped_at,
    }));
  }

  /** Forgets workers not seen since `before`; returns how many. */
  async forgetWorkers(before: string): Promise<number> {
    const result = await this.db.kysely.deleteFrom("job_workers").where("last_seen_at", "<", before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
