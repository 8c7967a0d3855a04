import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { databaseUrl, describeEachDialect, useTestDb } from "../../test/dialects.js";
import { eventually } from "../../test/eventually.js";
import type { JobDefinition } from "./job-types.js";
import { FAST_JOBS, useJobs } from "./test-support/jobs-harness.js";

const fixture = path.resolve(import.meta.dirname, "test-support/worker-process.ts");
const cli = path.resolve(import.meta.dirname, "../../cli.ts");
/**
 * The bound for one `dams` child process to start (through tsx, compiling the CLI), be signalled and stop.
 * A test that runs two gets twice as long: at load 30 on two cores two of them took the whole default 120 s.
 */
const CHILD_PROCESS_MS = 150_000;

const effect: JobDefinition<null> = { name: "fixture.effect", async run() {} };
const hang: JobDefinition<null> = { name: "fixture.hang", async run() {} };

interface Execution {
  job_id: string;
  worker: string;
  attempt: number;
}

describeEachDialect("job worker processes", (dialect) => {
  const db = useTestDb(dialect);
  const jobs = useJobs(db);
  const children: ChildProcess[] = [];
  let url = "";

  beforeAll(async () => {
    await sql`create table job_effects (job_id text not null, worker text not null, attempt integer not null)`.execute(
      db().kysely,
    );
    url = await databaseUrl(db());
  });

  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  });

  function startWorker(name: string, workers: number, leaseMs: number): Promise<ChildProcess> {
    const child = spawn(process.execPath, ["--import", "tsx", fixture], {
      env: {
        ...process.env,
        DATABASE_URL: url,
        DAMS_WORKERS: String(workers),
        DAMS_JOBS_POLL_MS: String(FAST_JOBS.pollIntervalMs),
        DAMS_JOBS_LEASE_MS: String(leaseMs),
        DAMS_JOBS_BACKOFF_MS: String(FAST_JOBS.backoffBaseMs),
        FIXTURE_WORKER: name,
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.push(child);
    return new Promise((resolve, reject) => {
      child.stdout!.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("ready")) resolve(child);
      });
      child.on("exit", (code) => reject(new Error(`worker ${name} exited with ${code} before it was ready`)));
    });
  }

  async function executions(jobId?: string): Promise<Execution[]> {
    const filter = jobId ? sql`where job_id = ${jobId}` : sql``;
    const result =
      await sql<Execution>`select job_id, worker, attempt from job_effects ${filter} order by attempt`.execute(
        db().kysely,
      );
    return result.rows;
  }

  it("runs a job again elsewhere when its worker process is SIGKILLed in the middle of it", async () => {
    const queue = jobs.queue();
    const id = await queue.enqueue(hang, null);
    // A short lease: the survivor takes over soon after the kill.
    const child = await startWorker("doomed", 1, 1000);
    await eventually(
      () => executions(id),
      (rows) => rows.length === 1,
    );
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
    // Killed mid-job: nothing told the database; the job still looks running under the dead worker's lease.
    expect(await queue.get(id)).toMatchObject({ state: "running", attempts: 1 });

    const finishing: JobDefinition<null> = {
      name: hang.name,
      async run(_payload, context) {
        await sql`insert into job_effects (job_id, worker, attempt) values (${context.jobId}, ${"survivor"}, ${context.attempt})`.execute(
          db().kysely,
        );
      },
    };
    jobs.worker(queue, [finishing]);
    expect(await jobs.untilState(queue, id, ["succeeded", "dead"])).toMatchObject({ state: "succeeded", attempts: 2 });
    const rows = await executions(id);
    expect(rows.map((row) => [row.worker, Number(row.attempt)])).toEqual([
      ["doomed", 1],
      ["survivor", 2],
    ]);
  });

  it("two worker processes over 200 jobs: every job succeeds and runs exactly once", async () => {
    const queue = jobs.queue();
    await sql`delete from job_effects`.execute(db().kysely);
    // Leases far longer than the test: an expiry (a legitimate second run) cannot hide or fake a double claim.
    await Promise.all([startWorker("first", 4, 120_000), startWorker("second", 4, 120_000)]);
    const ids: string[] = [];
    for (let index = 0; index < 200; index++) ids.push(await queue.enqueue(effect, null));
    await eventually(
      async () => (await queue.list({ name: effect.name, state: "succeeded", page: 0, size: 1 })).total,
      (succeeded) => succeeded === 200,
      { limitMs: 60_000 },
    );
    const rows = await executions();
    const perJob = new Map<string, number>();
    for (const row of rows) perJob.set(row.job_id, (perJob.get(row.job_id) ?? 0) + 1);
    expect(rows).toHaveLength(200);
    expect([...perJob.keys()].sort()).toEqual([...ids].sort());
    expect([...perJob.values()].every((count) => count === 1)).toBe(true);
    const byWorker = rows.reduce<Record<string, number>>((counts, row) => {
      counts[row.worker] = (counts[row.worker] ?? 0) + 1;
      return counts;
    }, {});
    process.stdout.write(`[${dialect}] 200 jobs by worker process: ${JSON.stringify(byWorker)}\n`);
  });
});

describe("dams serve and job workers", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dams-serve-workers-"));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  // A test that timed out leaves its dams process running: stop it, so a slow run leaves no server behind.
  afterEach(() => {
    for (const child of cliChildren) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    cliChildren.clear();
  });

  /** Starts `dams serve`, waits for what it says about workers, and stops it with one SIGTERM. */
  async function serveLog(args: string[]): Promise<{ code: number | null; stdout: string }> {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DAMS_DATA_DIR: dataDir,
      DAMS_LOG_LEVEL: "info",
      PORT: "0",
      HOST: "127.0.0.1",
    };
    delete env.DATABASE_URL;
    let signalled = false;
    return runCli(["serve", ...args], env, (output, child) => {
      if (signalled || !/job worker started|job workers off/.test(output)) return;
      signalled = true;
      child.kill("SIGTERM");
    });
  }

  it("dams worker refuses DAMS_WORKERS=0, and otherwise runs until SIGTERM, then stops its workers and exits", {
    timeout: 2 * CHILD_PROCESS_MS,
  }, async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, DAMS_DATA_DIR: dataDir, DAMS_LOG_LEVEL: "info" };
    delete env.DATABASE_URL;
    const refused = await runCli(["worker"], { ...env, DAMS_WORKERS: "0" });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("DAMS_WORKERS is 0");

    let signalled = false;
    // One SIGTERM only: close-with-grace takes a second signal as "exit now, with 1".
    const { code, stdout } = await runCli(["worker"], { ...env, DAMS_WORKERS: "1" }, (output, child) => {
      if (signalled || !output.includes("job worker started")) return;
      signalled = true;
      child.kill("SIGTERM");
    });
    expect(code).toBe(0);
    expect(stdout).toContain("job worker stopped");
  });

  it("runs in-process workers by default, none with --no-workers", { timeout: 2 * CHILD_PROCESS_MS }, async () => {
    const withWorkers = await serveLog([]);
    expect(withWorkers.code).toBe(0);
    expect(withWorkers.stdout).toContain("job worker started");
    expect(withWorkers.stdout).toContain("job worker stopped");

    const without = await serveLog(["--no-workers"]);
    expect(without.code).toBe(0);
    expect(without.stdout).toContain("job workers off");
    expect(without.stdout).not.toContain("job worker started");
  });
});

/** The dams processes runCli started and the current test has not seen end. */
const cliChildren = new Set<ChildProcess>();

function runCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  onOutput?: (stdout: string, child: ChildProcess) => void,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", cli, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
  cliChildren.add(child);
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    onOutput?.(stdout, child);
  });
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, stdout, stderr })));
}
