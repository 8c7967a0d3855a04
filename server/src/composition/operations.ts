import type { FastifyInstance } from "fastify";
import { buildActions } from "../modules/actions/actions.compose.js";
import { registerMaintenance } from "../modules/maintenance/maintenance.job.js";
import { MaintenanceRuns } from "../modules/maintenance/maintenance-runs.js";
import { buildMetadataTemplates } from "../modules/metadata-templates/metadata-templates.compose.js";
import { buildMonitor, buildUsageCounter } from "../modules/monitor/monitor.compose.js";
import { searchMissesExportTable, usageExportTable } from "../modules/monitor/usage.export.js";
import { usageRetentionStart } from "../modules/monitor/usage-counter.js";
import { buildStoryBatch } from "../modules/story-batch/story-batch.compose.js";
import { removeAbandonedUploads } from "../modules/uploads/uploads.js";
import type { FilesArea } from "./files.js";
import type { Foundation } from "./foundation.js";
import type { SharingArea } from "./sharing.js";
import type { StoriesArea } from "./stories.js";

/** The monitors: usage counted in memory, storage and data figures, the maintenance runs' record. */
export type MonitoringArea = ReturnType<typeof composeMonitoring>;

export function composeMonitoring(
  app: FastifyInstance,
  { config, db, access, storage, libraries, exportTables }: Foundation,
  { stories }: StoriesArea,
  { shares }: SharingArea,
) {
  // Story views and searches that found nothing: counted in memory, written every few seconds.
  const usageCounter = buildUsageCounter(db, {
    onError: (error) => app.log.warn({ err: error }, "usage counts not written"),
  });
  app.addHook("onClose", () => usageCounter.counter.close());
  app.decorate("usageCounter", usageCounter.counter);
  const maintenanceRuns = new MaintenanceRuns(db);
  const monitor = buildMonitor({
    maintenanceRuns,
    quotas: () => storage.quotas.quotas(),
    counters: usageCounter.repository,
    statistics: stories.statistics,
    libraries,
    shares: shares.service,
    userName: async (userId) => {
      const user = await access.authUsers.loadUser(userId);
      return user ? user.name || user.username : null;
    },
    volumes: [
      { name: "data", path: config.dataDir },
      ...(config.storage.kind === "local" ? [{ name: "blobs", path: config.storage.directory }] : []),
    ],
  });
  exportTables.register(usageExportTable(monitor.usage));
  exportTables.register(searchMissesExportTable(monitor.usage));
  return { usageCounter, maintenanceRuns, monitor };
}

/** Metadata templates and batch edits, the automation rules, and the recurring maintenance. */
export type AutomationArea = ReturnType<typeof composeAutomation>;

export function composeAutomation(
  app: FastifyInstance,
  foundation: Foundation,
  { stories, propertyAccess }: StoriesArea,
  { channels, publishing, presets }: SharingArea,
  { usageCounter, maintenanceRuns }: MonitoringArea,
  { uploads, processingRepair, disk }: FilesArea,
) {
  const { config, db, audit, users, access, libraries, jobs, blobs, outgoing, sharedKeys } = foundation;
  const metadataTemplates = buildMetadataTemplates(db, { libraries, audit: audit.log });
  // Batch edits of story metadata: small ones inside the request, larger ones as the "stories.batch-edit" job.
  const storyBatch = buildStoryBatch(db, {
    stories: stories.stories,
    access: stories.access,
    search: stories.queries,
    templates: metadataTemplates.service,
    propertyAccess,
    users,
    rolePermissions: (roleId) => access.roles.permissionSet(roleId),
    jobs,
    log: app.log,
  });
  // Automation rules (/manage/setting/action): evaluated and run by the "actions.evaluate" and "actions.run" jobs.
  const actions = buildActions(db, {
    jobs,
    audit: audit.log,
    stories,
    users,
    libraries,
    channels,
    publishing: publishing.publishing,
    templates: metadataTemplates.service,
    presets: presets.downloads,
    secretsKey: sharedKeys.channelCredentials,
    allowPrivate: config.channels.allowPrivate,
    webhookBackoff: { baseMs: config.jobs.backoffBaseMs, maxMs: config.jobs.backoffMaxMs },
    log: app.log,
  });
  registerMaintenance(jobs, {
    runs: maintenanceRuns,
    sweeper: blobs.sweeper,
    removeAbandonedUploads: () => removeAbandonedUploads(uploads),
    repairProcessing: () => processingRepair.repairAll(),
    disk: disk.disk,
    queue: jobs.queue,
    refreshStatistics: () => db.refreshStatistics(),
    pruneAuditLog: () => audit.service.prune(),
    sweepOutgoing: () =>
      outgoing.sweep({
        storiesThatExist: async (ids) => {
          const existing = new Set<string>();
          for (let at = 0; at < ids.length; at += 500) {
            for (const story of await stories.queries.findMany(ids.slice(at, at + 500))) existing.add(story.id);
          }
          return existing;
        },
      }),
    pruneUsageCounts: () => usageCounter.repository.prune(usageRetentionStart(new Date())),
    logger: app.log,
  });
  return { metadataTemplates, storyBatch, actions };
}
