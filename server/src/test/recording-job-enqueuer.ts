// TEMPORARY test stand-in, to be replaced by the jobs module's queue once it
// lands. It records each enqueued job into a test-only table, inside the
// transaction it is given, so tests can see that a job exists exactly when
// the rows that need it do.
import { type Kysely, sql } from "kysely";
import type { Db } from "../db/database.js";
import type { EnqueueOptions, JobDefinition, JobEnqueuer } from "../modules/jobs/job-types.js";

export const RECORDED_JOBS_TABLE = "test_recorded_jobs";

export interface RecordedJob {
  id: number;
  name: string;
  payload: string;
}

export class RecordingJobEnqueuer implements JobEnqueuer {
  /** Names of jobs whose enqueue should fail after the row is written (to test rollback). */
  readonly failAfterInsert = new Set<string>();

  constructor(private readonly db: Db) {}

  static async create(db: Db): Promise<RecordingJobEnqueuer> {
    await sql`create table ${sql.table(RECORDED_JOBS_TABLE)} (id integer primary key ${sql.raw(
      db.adapter.name === "postgres" ? "generated always as identity" : "",
    )}, name text not null, payload text not null)`.execute(db.kysely);
    return new RecordingJobEnqueuer(db);
  }

  async enqueue<Payload>(
    definition: JobDefinition<Payload>,
    payload: Payload,
    options?: EnqueueOptions,
  ): Promise<string> {
    const executor = (options?.transaction ?? this.db.kysely) as Kysely<unknown>;
    await sql`insert into ${sql.table(RECORDED_JOBS_TABLE)} (name, payload) values (${definition.name}, ${JSON.stringify(payload)})`.execute(
      executor,
    );
    if (this.failAfterInsert.has(definition.name)) throw new Error(`enqueue of ${definition.name} failed (test)`);
    return definition.name;
  }

  async recorded(): Promise<RecordedJob[]> {
    const result =
      await sql<RecordedJob>`select id, name, payload from ${sql.table(RECORDED_JOBS_TABLE)} order by id`.execute(
        this.db.kysely,
      );
    return result.rows;
  }
}
