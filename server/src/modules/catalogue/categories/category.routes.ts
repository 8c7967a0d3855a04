import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ok, okPage, page } from "../../../http/envelope.js";
import { apiRoute } from "../../../http/route.js";
import { CATALOGUE_PERMISSIONS, mergedBy, READ, write } from "../shared/catalogue-routes.js";
import { catalogueListQuery, deleteResult, idParams, mergeQuery } from "../shared/catalogue-schema.js";
import { categoryInput, categorySchema } from "./category.schema.js";
import type { CategoryService } from "./category.service.js";

const tags = ["catalogue: category"];
const PERMISSION = CATALOGUE_PERMISSIONS.category;

/** /categories: a tree of categories (each with a parent, or none at the top). */
export function categoryRoutes(categories: CategoryService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      "/categories",
      apiRoute(
        READ,
        { tags, summary: "List categories (paged)", querystring: catalogueListQuery },
        page(categorySchema),
      ),
      async (request) => okPage(await categories.list(request.query), request.query),
    );
    app.get(
      "/categories/all",
      apiRoute(
        READ,
        { tags, summary: "Every category, unpaged, for pickers (build the tree from parentId)" },
        z.array(categorySchema),
      ),
      async () => ok(await categories.all()),
    );
    app.post(
      "/categories",
      apiRoute(write(PERMISSION, "add"), { tags, summary: "Create a category", body: categoryInput }, categorySchema),
      async (request) => ok(await categories.create(request.body)),
    );
    app.put(
      "/categories/:id",
      apiRoute(
        write(PERMISSION, "edit"),
        { tags, summary: "Change or move a category", params: idParams, body: categoryInput },
        categorySchema,
      ),
      async (request) => ok(await categories.update(request.params.id, request.body)),
    );
    app.delete(
      "/categories/:id",
      apiRoute(
        write(PERMISSION, "delete"),
        {
          tags,
          summary: "Delete a category without subcategories that no story uses, or merge it into another (mergeInto)",
          params: idParams,
          querystring: mergeQuery,
        },
        deleteResult,
      ),
      async (request) => {
        const { mergeInto } = request.query;
        if (mergeInto) return ok(await categories.merge(request.params.id, mergeInto, mergedBy(request)));
        await categories.delete(request.params.id);
        return ok(null);
      },
    );
  };
}
