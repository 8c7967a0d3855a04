import os from "node:os";
import type { JobState } from "./job-types.js";
import { HEARTBEAT_MS, type WorkerHeartbeat } from "./job-worker.js";
import { JOB_STATES } from "./jobs.schema.js";
import type { JobCount, JobsMonitorRepository, WorkerRecord } from "./jobs-monitor.repository.js";

/** A worker not heard from for this long is shown as lost. */
export const WORKER_LOST_AFTER_MS = 6 * HEARTBEAT_MS;
/** Workers not seen for a day leave the monitor. */
const WORKERS_KEPT_MS = 24 * 60 * 60 * 1000;

export interface JobSummary {
  /** Every state, zero included. */
  byState: Record<JobState, number>;
  /** One row per job name: its count in each state. */
  byName: { name: string; counts: Record<JobState, number>; total: number }[];
}

export type WorkerStatus = "running" | "stopped" | "lost";

export interface WorkerView extends WorkerRecord {
  status: WorkerStatus;
}

function zeroCounts(): Record<JobState, number> {
  return Object.fromEntries(JOB_STATES.map((state) => [state, 0])) as Record<JobState, number>;
}

/** Folds (name, state, count) rows into totals by state and by name. */
export function summarise(rows: JobCount[]): JobSummary {
  const byState = zeroCounts();
  const names = new Map<string, Record<JobState, number>>();
  for (const row of rows) {
    byState[row.state] += row.count;
    const counts = names.get(row.name) ?? zeroCounts();
    names.set(row.name, counts);
    counts[row.state] += row.count;
  }
  const byName = [...names].map(([name, counts]) => ({
    name,
    counts,
    total: Object.values(counts).reduce((sum, count) => sum + count, 0),
  }));
  return { byState, byName };
}

export function workerStatus(worker: WorkerRecord, now: number): WorkerStatus {
  if (worker.stoppedAt) return "stopped";
  return now - Date.parse(worker.lastSeenAt) > WORKER_LOST_AFTER_MS ? "lost" : "running";
}

/** The task monitor: the queue counted by name and state, and the workers by their heartbeats. */
export class JobsMonitor implements WorkerHeartbeat {
  constructor(
    private readonly repository: JobsMonitorRepository,
    private readonly clock: () => number = Date.now,
  ) {}

  async summary(): Promise<JobSummary> {
    return summarise(await this.repository.countByNameAndState());
  }

  async workers(): Promise<WorkerView[]> {
    const now = this.clock();
    await this.repository.forgetWorkers(new Date(now - WORKERS_KEPT_MS).toISOString());
    const workers = await this.repository.workers(new Date(now - WORKERS_KEPT_MS).toISOString());
    return workers.map((worker) => ({ ...worker, status: workerStatus(worker, now) }));
  }

  async beat(worker: { id: string; concurrency: number; running: number; startedAt: string }): Promise<void> {
    await this.repository.beat(
      { ...worker, host: os.hostname(), pid: process.pid },
      new Date(this.clock()).toISOString(),
    );
  }

  async stopped(workerId: string): Promise<void> {
    await this.repository.stopped(workerId, new Date(this.clock()).toISOString());
  }
}
