import fs from "node:fs/promises";
import type { LibrariesService } from "../libraries/libraries.service.js";
import type { MaintenanceRuns } from "../maintenance/maintenance-runs.js";
import type { StoragePart, StoryStatistics } from "../stories/story-statistics.js";
import type { StorageMonitorView } from "./monitor.schema.js";

export interface MonitorDependencies {
  statistics: StoryStatistics;
  libraries: Pick<LibrariesService, "find">;
  /** The local directories to report free space of (the data dir, a local blob store). */
  volumes: { name: string; path: string }[];
  /** The maintenance job's reports: the sweeper's last one is shown. */
  maintenanceRuns?: Pick<MaintenanceRuns, "latest">;
  /** Quotas per library (the storage module's), shown beside each library's bytes. */
  quotas?: () => Promise<Map<string, number>>;
  clock?: () => number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The storage monitor: what the stories hold, where, and how it grows; the local volumes' space. */
export class StorageMonitor {
  constructor(private readonly deps: MonitorDependencies) {}

  async storage(days: number): Promise<StorageMonitorView> {
    const now = (this.deps.clock ?? Date.now)();
    const since = new Date(Math.floor(now / DAY_MS - (days - 1)) * DAY_MS).toISOString();
    const [storage, stories, growth, volumes, lastRun, quotas] = await Promise.all([
      this.deps.statistics.storage(),
      this.deps.statistics.stories(),
      this.deps.statistics.growth(since),
      this.#volumes(),
      this.deps.maintenanceRuns?.latest() ?? null,
      this.deps.quotas?.() ?? new Map<string, number>(),
    ]);
    const zero = () => ({ files: 0, bytes: 0 });
    const totals = { stories: 0, ...zero(), original: zero(), rendition: zero(), version: zero() };
    const libraries = new Map<
      string,
      { stories: number; files: number; bytes: number } & Record<StoragePart, number>
    >();
    const types = new Map<string, { stories: number; files: number; bytes: number }>();
    const library = (id: string) => {
      const found = libraries.get(id) ?? { stories: 0, files: 0, bytes: 0, original: 0, rendition: 0, version: 0 };
      libraries.set(id, found);
      return found;
    };
    const type = (name: string) => {
      const found = types.get(name) ?? { stories: 0, files: 0, bytes: 0 };
      types.set(name, found);
      return found;
    };
    for (const row of storage) {
      totals.files += row.files;
      totals.bytes += row.bytes;
      totals[row.part].files += row.files;
      totals[row.part].bytes += row.bytes;
      const inLibrary = library(row.libraryId);
      inLibrary.files += row.files;
      inLibrary.bytes += row.bytes;
      inLibrary[row.part] += row.bytes;
      const ofType = type(row.type);
      ofType.files += row.files;
      ofType.bytes += row.bytes;
    }
    for (const row of stories) {
      totals.stories += row.stories;
      library(row.libraryId).stories += row.stories;
      type(row.type).stories += row.stories;
    }
    const byLibrary = await Promise.all(
      [...libraries].map(async ([libraryId, figures]) => ({
        libraryId,
        libraryName: (await this.deps.libraries.find(libraryId))?.name ?? null,
        ...figures,
        quotaBytes: quotas.get(libraryId) ?? null,
      })),
    );
    byLibrary.sort((a, b) => b.bytes - a.bytes || a.libraryId.localeCompare(b.libraryId));
    const byType = [...types]
      .map(([name, figures]) => ({ type: name as StorageMonitorView["byType"][number]["type"], ...figures }))
      .sort((a, b) => b.bytes - a.bytes || a.type.localeCompare(b.type));
    const sweeper = lastRun
      ? {
          finishedAt: lastRun.finishedAt,
          blobsScanned: lastRun.report.blobsScanned,
          orphansDeleted: lastRun.report.orphansDeleted,
          orphansYoung: lastRun.report.orphansYoung,
          blobsMissing: lastRun.report.blobsMissing,
          missingKeys: lastRun.report.missingKeys,
          targets: lastRun.report.targets ?? [],
          abandonedUploads: lastRun.report.abandonedUploads,
          diskTrashPurged: lastRun.report.diskTrashPurged,
          outgoingCopiesDeleted: lastRun.report.outgoingCopiesDeleted,
        }
      : null;
    return { totals, byLibrary, byType, growth, volumes, sweeper };
  }

  async #volumes(): Promise<StorageMonitorView["volumes"]> {
    const volumes: StorageMonitorView["volumes"] = [];
    for (const volume of this.deps.volumes) {
      const stats = await fs.statfs(volume.path).catch(() => undefined);
      if (!stats) continue;
      volumes.push({ ...volume, totalBytes: stats.blocks * stats.bsize, freeBytes: stats.bavail * stats.bsize });
    }
    return volumes;
  }
}
