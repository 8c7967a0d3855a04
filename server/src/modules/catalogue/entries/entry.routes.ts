import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ok, page, toPage } from "../../../http/envelope.js";
import { apiRoute } from "../../../http/route.js";
import { CATALOGUE_PERMISSIONS, mergedBy, READ, write } from "../shared/catalogue-routes.js";
import {
  type CatalogueListQuery,
  catalogueListQuery,
  deleteResult,
  idParams,
  mergeQuery,
} from "../shared/catalogue-schema.js";
import type { EntryService } from "./entry.service.js";

export interface EntryRoutesOptions<View extends { id: string; name: string }, Input extends { name: string }> {
  service: EntryService<View, Input>;
  /** The OpenAPI tag, the noun of summaries and the key of the menu permission: "tag". */
  noun: keyof typeof CATALOGUE_PERMISSIONS;
  view: z.ZodType<View>;
  input: z.ZodType<Input>;
  /** The spec's paths, when not `/<noun>` and `/<noun>/:id`; `remove` ends with `:id`; `update` takes the id in the body. */
  paths?: { list: string; create: string; update: string; remove: string };
}

/** List, create, update (PUT with the id in the body) and delete of one simple catalogue entry. */
export function entryRoutes<View extends { id: string; name: string }, Input extends { name: string }>(
  options: EntryRoutesOptions<View, Input>,
): FastifyPluginAsyncZod {
  const { service, noun, view, input } = options;
  const permission = CATALOGUE_PERMISSIONS[noun];
  const paths = options.paths ?? { list: `/${noun}`, create: `/${noun}`, update: `/${noun}`, remove: `/${noun}/:id` };
  const tags = [`catalogue: ${noun}`];
  return async (app) => {
    app.get(
      paths.list,
      apiRoute(
        READ,
        {
          tags,
          summary: `List ${noun}s (paged; keyword matches any text column, name only the name)`,
          querystring: catalogueListQuery,
        },
        page(view),
      ),
      async (request) => {
        const query: CatalogueListQuery = request.query;
        const { content, total } = await service.list(query);
        return ok(toPage(content, total, query));
      },
    );
    app.post(
      paths.create,
      apiRoute(write(permission, "add"), { tags, summary: `Create a ${noun}`, body: input }, view),
      // The body was parsed by `input`; the generic provider types lose that.
      async (request) => ok(await service.create(request.body as Input)),
    );
    app.put(
      paths.update,
      apiRoute(
        write(permission, "edit"),
        {
          tags,
          summary: `Change a ${noun} (the id is in the body)`,
          body: z.intersection(input, z.object({ id: z.uuid() })),
        },
        view,
      ),
      async (request) => {
        const { id, ...changes } = request.body as Input & { id: string };
        return ok(await service.update(id, changes as unknown as Input));
      },
    );
    app.delete(
      paths.remove,
      apiRoute(
        write(permission, "delete"),
        {
          tags,
          summary: `Delete a ${noun} no story uses, or merge it into another (mergeInto)`,
          params: idParams,
          querystring: mergeQuery,
        },
        deleteResult,
      ),
      async (request) => {
        const { mergeInto } = request.query;
        if (mergeInto) return ok(await service.merge(request.params.id, mergeInto, mergedBy(request)));
        await service.delete(request.params.id);
        return ok(null);
      },
    );
  };
}
