import { Gauge, type Registry } from "prom-client";
import type { StoryStatistics } from "../stories/story-statistics.js";

/** Where the monitors' figures come from: each owner's service, asked once per scrape. */
export interface MonitorMetricsSources {
  statistics: Pick<StoryStatistics, "storage" | "stories">;
  libraryName: (libraryId: string) => Promise<string | null>;
  /** The task monitor's counts by job name and state. */
  jobs: () => Promise<{ name: string; counts: Record<string, number> }[]>;
  /** The publish monitor's deliveries by channel and state. */
  deliveries: () => Promise<{ channelId: string; channelName: string; state: string; count: number }[]>;
  /** Uploads begun and not finished (tus staging; the shared bucket or directory on several nodes). */
  uploadsInProgress: () => Promise<number>;
  users: () => Promise<{ status: number; count: number }[]>;
  /** Sign-in sessions not expired (null with an external issuer: they live there). */
  sessions: () => Promise<number | null>;
}

/**
 * The monitors' figures as Prometheus gauges (docs/monitors.md, "/metrics"):
 * the shared database's figures, the same on every node, read when scraped.
 * Gauges are reset before each read so a vanished label set disappears.
 */
export function registerMonitorMetrics(registry: Registry, sources: MonitorMetricsSources): void {
  const registers = [registry];
  // One read of the storage figures serves both gauges of a scrape (prom-client collects them side by side).
  let pending: Promise<Map<string, StorageSum>> | undefined;
  const storage = () => {
    pending ??= storageSums(sources).finally(() => {
      pending = undefined;
    });
    return pending;
  };
  for (const [name, help, figure] of [
    ["dams_storage_bytes", "bytes", "bytes"],
    ["dams_storage_files", "files", "files"],
  ] as const) {
    new Gauge({
      name,
      help: `${help} stored per library and part (original, rendition, version), as the storage monitor`,
      labelNames: ["library_id", "library", "part"] as const,
      registers,
      async collect() {
        const sums = await storage();
        this.reset();
        for (const sum of sums.values()) {
          this.set({ library_id: sum.libraryId, library: sum.libraryName, part: sum.part }, sum[figure]);
        }
      },
    });
  }
  new Gauge({
    name: "dams_stories",
    help: "stories per library and type",
    labelNames: ["library_id", "type"] as const,
    registers,
    async collect() {
      const rows = await sources.statistics.stories();
      this.reset();
      for (const row of rows) this.inc({ library_id: row.libraryId, type: row.type }, row.stories);
    },
  });
  new Gauge({
    name: "dams_jobs_by_name",
    help: "jobs in the database by name and state, as the task monitor",
    labelNames: ["name", "state"] as const,
    registers,
    async collect() {
      const rows = await sources.jobs();
      this.reset();
      for (const row of rows) {
        for (const [state, count] of Object.entries(row.counts)) this.set({ name: row.name, state }, count);
      }
    },
  });
  new Gauge({
    name: "dams_deliveries",
    help: "publishing deliveries by channel and state, as the publish monitor",
    labelNames: ["channel_id", "channel", "state"] as const,
    registers,
    async collect() {
      const rows = await sources.deliveries();
      this.reset();
      for (const row of rows) {
        this.set({ channel_id: row.channelId, channel: row.channelName, state: row.state }, row.count);
      }
    },
  });
  new Gauge({
    name: "dams_uploads_in_progress",
    help: "tus uploads begun and not yet finished",
    registers,
    async collect() {
      this.set(await sources.uploadsInProgress());
    },
  });
  new Gauge({
    name: "dams_users",
    help: "user accounts by status",
    labelNames: ["status"] as const,
    registers,
    async collect() {
      const rows = await sources.users();
      this.reset();
      for (const status of ["enabled", "disabled"]) this.set({ status }, 0);
      for (const row of rows) this.inc({ status: row.status === 1 ? "enabled" : "disabled" }, row.count);
    },
  });
  new Gauge({
    name: "dams_sessions",
    help: "sign-in sessions of the embedded sign-in server not yet expired",
    registers,
    async collect() {
      const count = await sources.sessions();
      if (count === null) this.reset();
      else this.set(count);
    },
  });
}

interface StorageSum {
  libraryId: string;
  libraryName: string;
  part: string;
  files: number;
  bytes: number;
}

async function storageSums(sources: MonitorMetricsSources): Promise<Map<string, StorageSum>> {
  const rows = await sources.statistics.storage();
  const names = new Map<string, string>();
  for (const id of new Set(rows.map((row) => row.libraryId))) names.set(id, (await sources.libraryName(id)) ?? "");
  const sums = new Map<string, StorageSum>();
  for (const row of rows) {
    const key = `${row.libraryId}\u0000${row.part}`;
    const sum = sums.get(key) ?? {
      libraryId: row.libraryId,
      libraryName: names.get(row.libraryId) ?? "",
      part: row.part,
      files: 0,
      bytes: 0,
    };
    sum.files += row.files;
    sum.bytes += row.bytes;
    sums.set(key, sum);
  }
  return sums;
}
