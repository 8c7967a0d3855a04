import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { crudRoutes } from "../../../http/crud-routes.js";
import { ok, page, pageQuery, toPage } from "../../../http/envelope.js";
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
    crudRoutes(app, {
      tags,
      path: "/codelists",
      itemPath: "/codelists/:id",
      item: codelistSchema,
      body: codelistInput,
      params: idParams,
      list: {
        config: READ,
        summary: "List code lists (paged)",
        querystring: catalogueListQuery,
        run: (query) => codelists.list(query),
      },
      create: {
        config: write(PERMISSION, "add"),
        summary: "Create a code list",
        run: (body) => codelists.create(body),
      },
      update: {
        config: write(PERMISSION, "edit"),
        summary: "Change a code list",
        run: ({ id }, body) => codelists.update(id, body),
      },
      remove: {
        config: write(PERMISSION, "delete"),
        summary: "Delete a code list (and its options) that no story property uses",
        run: ({ id }) => codelists.delete(id),
      },
    });

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
