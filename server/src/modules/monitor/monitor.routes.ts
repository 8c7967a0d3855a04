import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { commonErrorResponses, errorEnvelope, ok } from "../../http/envelope.js";
import { apiRoute } from "../../http/route.js";
import { can } from "../auth/route-config.js";
import type { DataMonitor } from "./data-monitor.service.js";
import { dataMonitorSchema, dataQuery, storageMonitorSchema, storageQuery } from "./monitor.schema.js";
import type { StorageMonitor } from "./monitor.service.js";
import {
  searchMissQuery,
  searchMissSchema,
  unusedQuery,
  unusedStorySchema,
  usageFilter,
  usageRowSchema,
} from "./usage.schema.js";
import type { UsageStatistics } from "./usage.service.js";

const errors = { ...commonErrorResponses, 401: errorEnvelope, 403: errorEnvelope };
/** The menu key of /backend/setting/usedStatistic. */
export const USAGE_PERMISSION = "backend.setting.usedStatistic";

/** The monitors' figures (/manage/monitor/storage, the back area's landing page; /manage/monitor/data) and the usage statistics. */
export function monitorRoutes(monitors: {
  storage: StorageMonitor;
  data: DataMonitor;
  usage: UsageStatistics;
}): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      "/monitor/storage",
      apiRoute(
        can("manage.monitor.storage", "query"),
        {
          tags: ["monitor"],
          summary: "Bytes and counts by library, story type and part; growth per day; local volumes' free space",
          querystring: storageQuery,
        },
        storageMonitorSchema,
        errors,
      ),
      async (request) => ok(await monitors.storage.storage(request.query.days)),
    );
    app.get(
      "/monitor/data",
      apiRoute(
        can("manage.monitor.data", "query"),
        {
          tags: ["monitor"],
          summary:
            "Stories by type, status and library; stories made, uploads and commits per day; top authors and sources",
          querystring: dataQuery,
        },
        dataMonitorSchema,
        errors,
      ),
      async (request) => ok(await monitors.data.data(request.query.days)),
    );
    app.get(
      "/statistics/usage",
      apiRoute(
        can(USAGE_PERMISSION, "query"),
        {
          tags: ["statistics"],
          summary:
            "Views, downloads, publishes and shares over a period (at most 400 days) per story, user, library, author or source",
          querystring: usageFilter,
        },
        z.array(usageRowSchema),
        errors,
      ),
      async (request) => ok(await monitors.usage.usage(request.query)),
    );
    app.get(
      "/statistics/unused",
      apiRoute(
        can(USAGE_PERMISSION, "query"),
        {
          tags: ["statistics"],
          summary:
            "Stories made before the period's end that were neither downloaded nor published in it, oldest first",
          querystring: unusedQuery,
        },
        z.array(unusedStorySchema),
        errors,
      ),
      async (request) => ok(await monitors.usage.unused(request.query)),
    );
    app.get(
      "/statistics/searches",
      apiRoute(
        can(USAGE_PERMISSION, "query"),
        {
          tags: ["statistics"],
          summary: "Searches that found nothing in the period (at most 400 days), most frequent first",
          querystring: searchMissQuery,
        },
        z.array(searchMissSchema),
        errors,
      ),
      async (request) => ok(await monitors.usage.searchMisses(request.query)),
    );
  };
}
