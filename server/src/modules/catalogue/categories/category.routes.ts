import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { envelope, ok, page, toPage } from "../../../http/envelope.js";
import { CATALOGUE_PERMISSIONS, catalogueErrors, mergedBy, READ, write } from "../shared/catalogue-routes.js";
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
      {
        config: READ,
        schema: {
          tags,
          summary: "List categories (paged)",
          querystring: catalogueListQuery,
          response: { 200: envelope(page(categorySchema)), ...catalogueErrors },
        },
      },
      async (request) => {
        const { content, total } = await categories.list(request.query);
        return ok(toPage(content, total, request.query));
      },
    );
    app.get(
      "/categories/all",
      {
        config: READ,
        schema: {
          tags,
          summary: "Every category, unpaged, for pickers (build the tree from parentId)",
          response: { 200: envelope(z.array(categorySchema)), ...catalogueErrors },
        },
      },
      async () => ok(await categories.all()),
    );
    app.post(
      "/categories",
      {
        config: write(PERMISSION, "add"),
        schema: {
          tags,
          summary: "Create a category",
          body: categoryInput,
          response: { 200: envelope(categorySchema), ...catalogueErrors },
        },
      },
      async (request) => ok(await categories.create(request.body)),
    );
    app.put(
      "/categories/:id",
      {
        config: write(PERMISSION, "edit"),
        schema: {
          tags,
          summary: "Change or move a category",
          params: idParams,
          body: categoryInput,
          response: { 200: envelope(categorySchema), ...catalogueErrors },
        },
      },
      async (request) => ok(await categories.update(request.params.id, request.body)),
    );
    app.delete(
      "/categories/:id",
      {
        config: write(PERMISSION, "delete"),
        schema: {
          tags,
          summary: "Delete a category without subcategories that no story uses, or merge it into another (mergeInto)",
          params: idParams,
          querystring: mergeQuery,
          response: { 200: envelope(deleteResult), ...catalogueErrors },
        },
      },
      async (request) => {
        const { mergeInto } = request.query;
        if (mergeInto) return ok(await categories.merge(request.params.id, mergeInto, mergedBy(request)));
        await categories.delete(request.params.id);
        return ok(null);
      },
    );
  };
}
