import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { crudRoutes } from "../../../http/crud-routes.js";
import { ok } from "../../../http/envelope.js";
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
    crudRoutes(app, {
      tags,
      path: "/categories",
      itemPath: "/categories/:id",
      item: categorySchema,
      body: categoryInput,
      params: idParams,
      list: {
        config: READ,
        summary: "List categories (paged)",
        querystring: catalogueListQuery,
        run: (query) => categories.list(query),
      },
      create: {
        config: write(PERMISSION, "add"),
        summary: "Create a category",
        run: (body) => categories.create(body),
      },
      collectionExtras: () =>
        app.get(
          "/categories/all",
          apiRoute(
            READ,
            { tags, summary: "Every category, unpaged, for pickers (build the tree from parentId)" },
            z.array(categorySchema),
          ),
          async () => ok(await categories.all()),
        ),
      update: {
        config: write(PERMISSION, "edit"),
        summary: "Change or move a category",
        run: ({ id }, body) => categories.update(id, body),
      },
    });
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
