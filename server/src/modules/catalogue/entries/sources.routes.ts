import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { envelope, ok } from "../../../http/envelope.js";
import { CATALOGUE_PERMISSIONS, catalogueErrors, READ } from "../shared/catalogue-routes.js";
import { pickQuery } from "../shared/catalogue-schema.js";
import { entryRoutes } from "./entry.routes.js";
import type { EntryService } from "./entry.service.js";
import { type SourceInput, type SourceView, sourceInput, sourceOptionSchema, sourceSchema } from "./sources.js";

const tags = ["catalogue: source"];

/** /source (CRUD), /source/all and /source/option. */
export function sourceRoutes(sources: EntryService<SourceView, SourceInput>): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(
      entryRoutes({
        service: sources,
        noun: "source",
        permission: CATALOGUE_PERMISSIONS.source,
        view: sourceSchema,
        input: sourceInput,
        paths: { list: "/source", create: "/source", update: "/source", remove: "/source/:id" },
      }),
    );
    app.get(
      "/source/all",
      {
        config: READ,
        schema: {
          tags,
          summary: "Every source, unpaged, in display order",
          querystring: pickQuery,
          response: { 200: envelope(z.array(sourceSchema)), ...catalogueErrors },
        },
      },
      async (request) => ok(await sources.all(request.query.keyword, request.query.size)),
    );
    app.get(
      "/source/option",
      {
        config: READ,
        schema: {
          tags,
          summary: "Sources as select options: label and value are the name",
          querystring: pickQuery,
          response: { 200: envelope(z.array(sourceOptionSchema)), ...catalogueErrors },
        },
      },
      async (request) =>
        ok(
          (await sources.all(request.query.keyword, request.query.size)).map((source) => ({
            id: source.id,
            label: source.name,
            value: source.name,
          })),
        ),
    );
  };
}
