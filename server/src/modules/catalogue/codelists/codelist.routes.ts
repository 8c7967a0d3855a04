import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ok, okPage, page, pageQuery, toPage } from "../../../http/envelope.js";
import { apiRoute } from "../../../http/route.js";
import { CATALOGUE_PERMISSIONS, READ, write } from "../shared/catalogue-routes.js";
import { catalogueListQuery, idParams } from "../shared/catalogue-schema.js";
import {
  codelistInput,
  codelistOptionInput,
  codelistOptionParams,
  codelistOptionSchema,
  codelistSchema,
  optionLookupQuery,
} from "./codelist.schema.js";
import type { CodelistService } from "./codelist.service.js";

const tags = ["catalogue: code list"];
const PERMISSION = CATALOGUE_PERMISSIONS.codelist;

/** /codelists and their options; /codelists/codelist/option?id= is the spec's lookup. */
export function codelistRoutes(codelists: CodelistService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      "/codelists/codelist/option",
      apiRoute(
        READ,
        { tags, summary: "The options of a code list, in order", querystring: optionLookupQuery },
        z.array(codelistOptionSchema),
      ),
      async (request) => ok(await codelists.optionsOf(request.query.id)),
    );
    app.get(
      "/codelists",
      apiRoute(
        READ,
        { tags, summary: "List code lists (paged)", querystring: catalogueListQuery },
        page(codelistSchema),
      ),
      async (request) => okPage(await codelists.list(request.query), request.query),
    );
    app.post(
      "/codelists",
      apiRoute(write(PERMISSION, "add"), { tags, summary: "Create a code list", body: codelistInput }, codelistSchema),
      async (request) => ok(await codelists.create(request.body)),
    );
    app.put(
      "/codelists/:id",
      apiRoute(
        write(PERMISSION, "edit"),
        { tags, summary: "Change a code list", params: idParams, body: codelistInput },
        codelistSchema,
      ),
      async (request) => ok(await codelists.update(request.params.id, request.body)),
    );
    app.delete(
      "/codelists/:id",
      apiRoute(
        write(PERMISSION, "delete"),
        { tags, summary: "Delete a code list (and its options) that no story property uses", params: idParams },
        z.null(),
      ),
      async (request) => {
        await codelists.delete(request.params.id);
        return ok(null);
      },
    );

    app.get(
      "/codelists/:id/options",
      apiRoute(
        READ,
        { tags, summary: "List a code list's options (paged)", params: idParams, querystring: pageQuery },
        page(codelistOptionSchema),
      ),
      async (request) => {
        const { content, total } = await codelists.listOptions(request.params.id, request.query);
        return ok(toPage(content, total, request.query));
      },
    );
    app.post(
      "/codelists/:id/options",
      apiRoute(
        write(PERMISSION, "add"),
        { tags, summary: "Add an option to a code list", params: idParams, body: codelistOptionInput },
        codelistOptionSchema,
      ),
      async (request) => ok(await codelists.createOption(request.params.id, request.body)),
    );
    app.put(
      "/codelists/:id/options/:optionId",
      apiRoute(
        write(PERMISSION, "edit"),
        { tags, summary: "Change an option of a code list", params: codelistOptionParams, body: codelistOptionInput },
        codelistOptionSchema,
      ),
      async (request) => ok(await codelists.updateOption(request.params.id, request.params.optionId, request.body)),
    );
    app.delete(
      "/codelists/:id/options/:optionId",
      apiRoute(
        write(PERMISSION, "delete"),
        { tags, summary: "Remove an option from a code list", params: codelistOptionParams },
        z.null(),
      ),
      async (request) => {
        await codelists.deleteOption(request.params.id, request.params.optionId);
        return ok(null);
      },
    );
  };
}
