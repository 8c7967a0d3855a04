import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { pickListRoute } from "../shared/catalogue-routes.js";
import { entryRoutes } from "./entry.routes.js";
import type { EntryService } from "./entry.service.js";
import { type SourceInput, type SourceView, sourceInput, sourceOptionSchema, sourceSchema } from "./sources.js";

const tags = ["catalogue: source"];

/** /source (CRUD), /source/all and /source/option. */
export function sourceRoutes(sources: EntryService<SourceView, SourceInput>): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(entryRoutes({ service: sources, noun: "source", view: sourceSchema, input: sourceInput }));
    await app.register(
      pickListRoute(
        "/source/all",
        { tags, summary: "Every source, unpaged, in display order" },
        sourceSchema,
        (keyword, size) => sources.all(keyword, size),
      ),
    );
    await app.register(
      pickListRoute(
        "/source/option",
        { tags, summary: "Sources as select options: label and value are the name" },
        sourceOptionSchema,
        async (keyword, size) =>
          (await sources.all(keyword, size)).map((source) => ({
            id: source.id,
            label: source.name,
            value: source.name,
          })),
      ),
    );
  };
}
