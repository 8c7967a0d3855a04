import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ok } from "../../../http/envelope.js";
import { apiRoute } from "../../../http/route.js";
import { CATALOGUE_PERMISSIONS, READ } from "../shared/catalogue-routes.js";
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
      apiRoute(
        READ,
        { tags, summary: "Every source, unpaged, in display order", querystring: pickQuery },
        z.array(sourceSchema),
      ),
      async (request) => ok(await sources.all(request.query.keyword, request.query.size)),
    );
    app.get(
      "/source/option",
      apiRoute(
        READ,
        { tags, summary: "Sources as select options: label and value are the name", querystring: pickQuery },
        z.array(sourceOptionSchema),
      ),
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
