import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ok } from "../../http/envelope.js";
import { apiRoute } from "../../http/route.js";
import { actorOf } from "../auth/actor.js";
import type { PermissionKey } from "../auth/permissions.js";
import { can } from "../auth/route-config.js";
import type { LibraryQuotas } from "./library-quotas.js";
import { libraryParams } from "./storage.schema.js";

const tags = ["storage"];
/** The storage settings screen (/manage/storage/setting). */
const STORAGE_SETTING: PermissionKey = "manage.storage.setting";

const libraryQuotaSchema = z
  .object({
    libraryId: z.string(),
    libraryName: z.string(),
    usedBytes: z.number().describe("every stored byte of the library's stories: originals, renditions, older versions"),
    quotaBytes: z.number().nullable().describe("null: no limit"),
  })
  .meta({ id: "LibraryQuota" });

const libraryQuotaBody = z.object({
  quotaBytes: z
    .number()
    .int()
    .min(0)
    .max(2 ** 50)
    .nullable()
    .describe("bytes; null removes the limit; 0 closes the library to new files"),
});

/** Quotas per library (docs/storage.md, "Quotas"); users' quotas are the network disk's (`/disk/quotas/{userId}`). */
export function libraryQuotasRoutes(quotas: LibraryQuotas): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      "/storage/quotas",
      apiRoute(
        can(STORAGE_SETTING, "query"),
        { tags, summary: "Every library's usage and quota" },
        z.array(libraryQuotaSchema),
      ),
      async () => ok(await quotas.list()),
    );
    app.put(
      "/storage/quotas/libraries/:libraryId",
      apiRoute(
        can(STORAGE_SETTING, "edit"),
        { tags, summary: "Set or remove a library's quota", params: libraryParams, body: libraryQuotaBody },
        libraryQuotaSchema,
      ),
      async (request) => ok(await quotas.set(actorOf(request), request.params.libraryId, request.body.quotaBytes)),
    );
  };
}
