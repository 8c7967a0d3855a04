import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ok, page, pageQuery, toPage } from "../../../http/envelope.js";
import { apiRoute } from "../../../http/route.js";
import { currentUser } from "../../auth/auth.plugin.js";
import { entryRoutes } from "../entries/entry.routes.js";
import { CATALOGUE_PERMISSIONS, READ } from "../shared/catalogue-routes.js";
import { idParams, pickQuery } from "../shared/catalogue-schema.js";
import { historyEntrySchema, keywordInput, keywordSchema, recordHistoryBody } from "./keyword.schema.js";
import type { KeywordService } from "./keyword.service.js";

const tags = ["catalogue: keyword"];
const historyTags = ["catalogue: keyword history"];

/** /keyword (CRUD, list, listByOrder) and the caller's own /keywordhistory. */
export function keywordRoutes(keywords: KeywordService): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(
      entryRoutes({
        service: keywords,
        noun: "keyword",
        permission: CATALOGUE_PERMISSIONS.keyword,
        view: keywordSchema,
        input: keywordInput,
        paths: { list: "/keyword", create: "/keyword", update: "/keyword", remove: "/keyword/:id" },
      }),
    );
    app.get(
      "/keyword/list",
      apiRoute(
        READ,
        { tags, summary: "Keywords by name, unpaged, for pickers", querystring: pickQuery },
        z.array(keywordSchema),
      ),
      async (request) => ok(await keywords.all(request.query.keyword, request.query.size)),
    );
    app.get(
      "/keyword/listByOrder",
      apiRoute(
        READ,
        { tags, summary: "The most used keywords first (then by name)", querystring: pickQuery },
        z.array(keywordSchema),
      ),
      async (request) => ok(await keywords.mostUsed(request.query.keyword, request.query.size)),
    );

    app.get(
      "/keywordhistory",
      apiRoute(
        READ,
        {
          tags: historyTags,
          summary: "The caller's recently used keywords, most recent first",
          querystring: pageQuery,
        },
        page(historyEntrySchema),
      ),
      async (request) => {
        const { content, total } = await keywords.history(currentUser(request).id, request.query);
        return ok(toPage(content, total, request.query));
      },
    );
    app.post(
      "/keywordhistory",
      apiRoute(
        READ,
        {
          tags: historyTags,
          summary: `Record keywords the caller used: they move to the top of the history, which keeps the latest 50`,
          body: recordHistoryBody,
        },
        z.null(),
      ),
      async (request) => {
        await keywords.recordHistory(currentUser(request).id, request.body.keywords);
        return ok(null);
      },
    );
    app.delete(
      "/keywordhistory/:id",
      apiRoute(
        READ,
        { tags: historyTags, summary: "Forget one keyword of the caller's history", params: idParams },
        z.null(),
      ),
      async (request) => {
        await keywords.forgetHistory(currentUser(request).id, request.params.id);
        return ok(null);
      },
    );
    app.delete(
      "/keywordhistory",
      apiRoute(READ, { tags: historyTags, summary: "Clear the caller's keyword history" }, z.null()),
      async (request) => {
        await keywords.forgetHistory(currentUser(request).id);
        return ok(null);
      },
    );
  };
}
