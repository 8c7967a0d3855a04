import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { crudRoutes } from "../../../http/crud-routes.js";
import { ok } from "../../../http/envelope.js";
import { apiRoute } from "../../../http/route.js";
import { actorOf } from "../../auth/actor.js";
import { CATALOGUE_PERMISSIONS, READ, write } from "../shared/catalogue-routes.js";
import { idParams } from "../shared/catalogue-schema.js";
import {
  formPropertySchema,
  propertyListQuery,
  propertyLookupQuery,
  storyPropertyInput,
  storyPropertySchema,
} from "./property.schema.js";
import type { PropertyService } from "./property.service.js";

const tags = ["catalogue: story properties"];
const PERMISSION = CATALOGUE_PERMISSIONS.storyProperties;

/** The properties a user may not edit (field-level access: the access module's PropertyAccessService.lockedFor). */
export type LockedProperties = (user: { admin: boolean; roleId: string | null }) => Promise<ReadonlySet<string>>;

/** /properties: the custom story properties the upload forms are built from. */
export function propertyRoutes(properties: PropertyService, locked?: LockedProperties): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      "/properties/list",
      apiRoute(
        READ,
        {
          tags,
          summary: "The properties of a story type's form in a library, quick ones first, with code-list options",
          description:
            "`editable` says whether the caller's role may edit the property (field-level access); an edit of one that is not is refused with 403 `property_not_editable`.",
          querystring: propertyLookupQuery,
        },
        z.array(formPropertySchema),
      ),
      async (request) => {
        const lockedNow = locked ? await locked(actorOf(request)) : new Set<string>();
        const found = await properties.lookup(request.query);
        return ok(found.map((property) => ({ ...property, editable: !lockedNow.has(property.name) })));
      },
    );
    app.get(
      "/properties/locked",
      apiRoute(
        READ,
        {
          tags,
          summary: "The property keys the caller's role may not edit (field-level access), for forms to disable them",
          description:
            "Catalogue properties and the IPTC texts kept in `properties` (headline, credit, copyrightNotice, usageTerms, instructions, city, country) alike; an edit of one answers 403 `property_not_editable`. Empty for administrators.",
        },
        z.object({ locked: z.array(z.string()) }),
      ),
      async (request) => {
        const lockedNow = locked ? await locked(actorOf(request)) : new Set<string>();
        return ok({ locked: [...lockedNow].sort() });
      },
    );
    crudRoutes(app, {
      tags,
      path: "/properties",
      itemPath: "/properties/:id",
      item: storyPropertySchema,
      body: storyPropertyInput,
      params: idParams,
      list: {
        config: READ,
        summary: "List story properties (paged)",
        querystring: propertyListQuery,
        run: (query) => properties.list(query),
      },
      create: {
        config: write(PERMISSION, "add"),
        summary: "Create a story property",
        run: (body) => properties.create(body),
      },
      update: {
        config: write(PERMISSION, "edit"),
        summary: "Change a story property",
        run: ({ id }, body) => properties.update(id, body),
      },
      remove: {
        config: write(PERMISSION, "delete"),
        summary: "Delete a story property (stories keep the values they hold)",
        run: ({ id }) => properties.delete(id),
      },
    });
  };
}
