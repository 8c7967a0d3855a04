import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ok, page, pageQuery, toPage } from "../../../http/envelope.js";
import { apiRoute } from "../../../http/route.js";
import { currentUser } from "../../auth/auth.plugin.js";
import { entryRoutes } from "../entries/entry.routes.js";
import { pickListRoute, READ } from "../shared/catalogue-routes.js";
import { idParams } from "../shared/catalogue-schema.js";
import { historyEntrySchema, keywordInput, keywordSchema, recordHistoryBody } from "./keyword.schema.js";
import type { KeywordService } from "./keyword.service.js";

const tags = ["catalogue: keyword"];
const historyTags = ["catalogue: keyword history"];

/** /keyword (CRUD, list, listByOrder) and the caller's own /keywordhistory. */
export function keywordRoutes(keywords: KeywordService): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(entryRoutes({ service: keywords, noun: "keyword", view: keywordSchema, input: keywordInput }));
    await app.register(
      pickListRoute(
        "/keyword/list",
        { tags, summary: "Keywords by name, unpaged, for pickers" },
        keywordSchema,
        (keyword, size) => keywords.all(keyword, size),
      ),
    );
    await app.register(
      pickListRoute(
        "/keyword/listByOrder",
        { tags, summary: "The most used keywords first (then by name)" },
        keywordSchema,
        (keyword, size) => keywords.mostUsed(keyword, size),
      ),
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
