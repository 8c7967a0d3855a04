/**
 * A worker process for the crash and exactly-once tests (job-processes.test.ts),
 * run with tsx. Configured like `dams worker`, from the environment; its
 * handlers record each execution as a row of the test's job_effects table.
 */
import { sql } from "kysely";
import { loadConfig } from "../../../config.js";
import { openDatabase } from "../../../db/database.js";
import { buildJobs } from "../jobs.compose.js";

const config = loadConfig(process.env);
const db = openDatabase(config.database);
const jobs = buildJobs(db, config.jobs);
const worker = process.env.FIXTURE_WORKER ?? String(process.pid);

async function recordExecution(jobId: string, attempt: number): Promise<void> {
  await sql`insert into job_effects (job_id, worker, attempt) values (${jobId}, ${worker}, ${attempt})`.execute(
    db.kysely,
  );
}

jobs.worker.register<null>({
  name: "fixture.effect",
  async run(_payload, context) {
    await recordExecution(context.jobId, context.attempt);
  },
});

jobs.worker.register<null>({
  name: "fixture.hang",
  async run(_payload, context) {
    await recordExecution(context.jobId, context.attempt);
    // Busy "transcoding" until the process is killed.
    await new Promise(() => {});
  },
});

jobs.worker.start();
process.stdout.write("ready\n");

process.on("SIGTERM", () => {
  void jobs.worker
    .stop()
    .then(() => db.close())
    .then(() => process.exit(0));
});
