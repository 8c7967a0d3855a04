import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ok, okPage, page } from "../../../http/envelope.js";
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
    app.get(
      "/properties",
      apiRoute(
        READ,
        { tags, summary: "List story properties (paged)", querystring: propertyListQuery },
        page(storyPropertySchema),
      ),
      async (request) => okPage(await properties.list(request.query), request.query),
    );
    app.post(
      "/properties",
      apiRoute(
        write(PERMISSION, "add"),
        { tags, summary: "Create a story property", body: storyPropertyInput },
        storyPropertySchema,
      ),
      async (request) => ok(await properties.create(request.body)),
    );
    app.put(
      "/properties/:id",
      apiRoute(
        write(PERMISSION, "edit"),
        { tags, summary: "Change a story property", params: idParams, body: storyPropertyInput },
        storyPropertySchema,
      ),
      async (request) => ok(await properties.update(request.params.id, request.body)),
    );
    app.delete(
      "/properties/:id",
      apiRoute(
        write(PERMISSION, "delete"),
        { tags, summary: "Delete a story property (stories keep the values they hold)", params: idParams },
        z.null(),
      ),
      async (request) => {
        await properties.delete(request.params.id);
        return ok(null);
      },
    );
  };
}
