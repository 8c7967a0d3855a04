import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { envelope, ok, page, pageQuery, toPage } from "../../../http/envelope.js";
import { CATALOGUE_PERMISSIONS, catalogueErrors, READ, write } from "../shared/catalogue-routes.js";
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
      {
        config: READ,
        schema: {
          tags,
          summary: "The options of a code list, in order",
          querystring: optionLookupQuery,
          response: { 200: envelope(z.array(codelistOptionSchema)), ...catalogueErrors },
        },
      },
      async (request) => ok(await codelists.optionsOf(request.query.id)),
    );
    app.get(
      "/codelists",
      {
        config: READ,
        schema: {
          tags,
          summary: "List code lists (paged)",
          querystring: catalogueListQuery,
          response: { 200: envelope(page(codelistSchema)), ...catalogueErrors },
        },
      },
      async (request) => {
        const { content, total } = await codelists.list(request.query);
        return ok(toPage(content, total, request.query));
      },
    );
    app.post(
      "/codelists",
      {
        config: write(PERMISSION, "add"),
        schema: {
          tags,
          summary: "Create a code list",
          body: codelistInput,
          response: { 200: envelope(codelistSchema), ...catalogueErrors },
        },
      },
      async (request) => ok(await codelists.create(request.body)),
    );
    app.put(
      "/codelists/:id",
      {
        config: write(PERMISSION, "edit"),
        schema: {
          tags,
          summary: "Change a code list",
          params: idParams,
          body: codelistInput,
          response: { 200: envelope(codelistSchema), ...catalogueErrors },
        },
      },
      async (request) => ok(await codelists.update(request.params.id, request.body)),
    );
    app.delete(
      "/codelists/:id",
      {
        config: write(PERMISSION, "delete"),
        schema: {
          tags,
          summary: "Delete a code list (and its options) that no story property uses",
          params: idParams,
          response: { 200: envelope(z.null()), ...catalogueErrors },
        },
      },
      async (request) => {
        await codelists.delete(request.params.id);
        return ok(null);
      },
    );

    app.get(
      "/codelists/:id/options",
      {
        config: READ,
        schema: {
          tags,
          summary: "List a code list's options (paged)",
          params: idParams,
          querystring: pageQuery,
          response: { 200: envelope(page(codelistOptionSchema)), ...catalogueErrors },
        },
      },
      async (request) => {
        const { content, total } = await codelists.listOptions(request.params.id, request.query);
        return ok(toPage(content, total, request.query));
      },
    );
    app.post(
      "/codelists/:id/options",
      {
        config: write(PERMISSION, "add"),
        schema: {
          tags,
          summary: "Add an option to a code list",
          params: idParams,
          body: codelistOptionInput,
          response: { 200: envelope(codelistOptionSchema), ...catalogueErrors },
        },
      },
      async (request) => ok(await codelists.createOption(request.params.id, request.body)),
    );
    app.put(
      "/codelists/:id/options/:optionId",
      {
        config: write(PERMISSION, "edit"),
        schema: {
          tags,
          summary: "Change an option of a code list",
          params: codelistOptionParams,
          body: codelistOptionInput,
          response: { 200: envelope(codelistOptionSchema), ...catalogueErrors },
        },
      },
      async (request) => ok(await codelists.updateOption(request.params.id, request.params.optionId, request.body)),
    );
    app.delete(
      "/codelists/:id/options/:optionId",
      {
        config: write(PERMISSION, "delete"),
        schema: {
          tags,
          summary: "Remove an option from a code list",
          params: codelistOptionParams,
          response: { 200: envelope(z.null()), ...catalogueErrors },
        },
      },
      async (request) => {
        await codelists.deleteOption(request.params.id, request.params.optionId);
        return ok(null);
      },
    );
  };
}
