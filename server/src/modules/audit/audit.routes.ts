import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ok } from "../../http/envelope.js";
import { apiRoute } from "../../http/route.js";
import { actorOf } from "../auth/actor.js";
import { can } from "../auth/route-config.js";
import { auditPageSchema, auditSettingsBody, auditSettingsSchema, logDisplayQuery } from "./audit.schema.js";
import type { AuditService } from "./audit.service.js";

/** The permission of the log page (`/manage/setting/log`): administrators only, as every `manage.setting` key. */
export const LOG_PERMISSION = "manage.setting.log";

/** The operation log page's API (spec section 7: GET /log/logDisplay) and its retention setting. */
export function auditRoutes(service: AuditService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ["operation log"];
    app.get(
      "/log/logDisplay",
      apiRoute(
        can(LOG_PERMISSION, "query"),
        {
          tags,
          summary: "The operation log, newest first, filtered; paged by cursor",
          description:
            "Keyset paging on (at, id): pass the answer's `next` as `cursor` for the next page. There is no total (no count over the table). A date range may span at most 400 days.",
          querystring: logDisplayQuery,
        },
        auditPageSchema,
      ),
      async (request) => {
        const { size, cursor, ...filter } = request.query;
        const page = await service.page(filter, cursor, size);
        return ok({ ...page, size });
      },
    );
    app.get(
      "/log/settings",
      apiRoute(
        can(LOG_PERMISSION, "query"),
        { tags, summary: "How long the operation log keeps its rows" },
        auditSettingsSchema,
      ),
      async () => ok(await service.settings()),
    );
    app.put(
      "/log/settings",
      apiRoute(
        can(LOG_PERMISSION, "update"),
        {
          tags,
          summary: "Sets how long the operation log keeps its rows (the maintenance job prunes older ones)",
          body: auditSettingsBody,
        },
        auditSettingsSchema,
      ),
      async (request) => ok(await service.saveSettings(actorOf(request), request.body)),
    );
  };
}
