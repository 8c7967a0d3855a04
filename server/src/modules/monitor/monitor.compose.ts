import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Db } from "../../db/database.js";
import type { LibrariesService } from "../libraries/libraries.service.js";
import type { MaintenanceRuns } from "../maintenance/maintenance-runs.js";
import type { SharesService } from "../shares/shares.service.js";
import type { StoryStatistics } from "../stories/story-statistics.js";
import { DataMonitor } from "./data-monitor.service.js";
import { monitorRoutes } from "./monitor.routes.js";
import { StorageMonitor } from "./monitor.service.js";
import { UsageStatistics } from "./usage.service.js";
import { UsageCounter, UsageCountersRepository } from "./usage-counter.js";

declare module "fastify" {
  interface FastifyInstance {
    /** Story views and searches that found nothing, counted in memory (tests flush it). */
    usageCounter: UsageCounter;
  }
}

/** Builds the storage and data monitors, the usage statistics and their routes; called once by app.ts. */
export function buildMonitor(deps: {
  statistics: StoryStatistics;
  libraries: Pick<LibrariesService, "find">;
  shares: Pick<SharesService, "sharedStories">;
  counters: UsageCountersRepository;
  userName: (userId: string) => Promise<string | null>;
  volumes: { name: string; path: string }[];
  maintenanceRuns?: Pick<MaintenanceRuns, "latest">;
  quotas?: () => Promise<Map<string, number>>;
}): { storage: StorageMonitor; data: DataMonitor; usage: UsageStatistics; routes: FastifyPluginAsyncZod } {
  const storage = new StorageMonitor(deps);
  const data = new DataMonitor(deps);
  const usage = new UsageStatistics(deps);
  return { storage, data, usage, routes: monitorRoutes({ storage, data, usage }) };
}

/**
 * The story views and searches that found nothing, counted in memory and written every few seconds (built
 * before the stories' routes, which tell it; closed with the app so the last counts are written).
 */
export function buildUsageCounter(
  db: Db,
  options: { flushEveryMs?: number; onError?: (error: unknown) => void } = {},
): { counter: UsageCounter; repository: UsageCountersRepository } {
  const repository = new UsageCountersRepository(db);
  return { counter: new UsageCounter(repository, options), repository };
}
