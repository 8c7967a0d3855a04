import { Gauge, type Registry } from "prom-client";
import type { Jobs } from "./jobs.compose.js";
import { JOB_STATES } from "./jobs.schema.js";

/** Prometheus gauges: jobs in the database by state (all processes), and jobs running in this process. */
export function registerJobMetrics(registry: Registry, { queue, worker }: Pick<Jobs, "queue" | "worker">): void {
  new Gauge({
    name: "dams_jobs",
    help: "jobs in the database by state",
    labelNames: ["state"] as const,
    registers: [registry],
    async collect() {
      const counts = await queue.countByState();
      for (const state of JOB_STATES) this.set({ state }, counts[state] ?? 0);
    },
  });
  new Gauge({
    name: "dams_jobs_running_here",
    help: "jobs this process's worker is running",
    registers: [registry],
    collect() {
      this.set(worker.runningJobs);
    },
  });
}
