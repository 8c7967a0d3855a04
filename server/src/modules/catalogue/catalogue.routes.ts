import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Catalogue } from "./catalogue.compose.js";
import { categoryRoutes } from "./categories/category.routes.js";
import { codelistRoutes } from "./codelists/codelist.routes.js";
import { authorInput, authorSchema } from "./entries/authors.js";
import { entryRoutes } from "./entries/entry.routes.js";
import { sourceRoutes } from "./entries/sources.routes.js";
import { tagInput, tagSchema } from "./entries/tags.js";
import { themeInput, themeSchema } from "./entries/themes.js";
import { keywordRoutes } from "./keywords/keyword.routes.js";
import { type LockedProperties, propertyRoutes } from "./properties/property.routes.js";

/** Every catalogue route, with the spec's paths (section 7) and ours for categories, code lists and properties. */
export function catalogueRoutes(catalogue: Catalogue, locked?: LockedProperties): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(entryRoutes({ service: catalogue.themes, noun: "theme", view: themeSchema, input: themeInput }));
    await app.register(entryRoutes({ service: catalogue.tags, noun: "tag", view: tagSchema, input: tagInput }));
    await app.register(
      entryRoutes({
        service: catalogue.authors,
        noun: "author",
        view: authorSchema,
        input: authorInput,
        paths: {
          list: "/nrauthor/select",
          create: "/nrauthor/create",
          update: "/nrauthor/update",
          remove: "/nrauthor/delete/:id",
        },
      }),
    );
    await app.register(sourceRoutes(catalogue.sources));
    await app.register(keywordRoutes(catalogue.keywords));
    await app.register(categoryRoutes(catalogue.categories));
    await app.register(codelistRoutes(catalogue.codelists));
    await app.register(propertyRoutes(catalogue.properties, locked));
  };
}
