import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { envelope, ok, page, toPage } from "../../../http/envelope.js";
import { actorOf } from "../../auth/actor.js";
import { CATALOGUE_PERMISSIONS, catalogueErrors, READ, write } from "../shared/catalogue-routes.js";
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
      {
        config: READ,
        schema: {
          tags,
          summary: "The properties of a story type's form in a library, quick ones first, with code-list options",
          description:
            "`editable` says whether the caller's role may edit the property (field-level access); an edit of one that is not is refused with 403 `property_not_editable`.",
          querystring: propertyLookupQuery,
          response: { 200: envelope(z.array(formPropertySchema)), ...catalogueErrors },
        },
      },
      async (request) => {
        const lockedNow = locked ? await locked(actorOf(request)) : new Set<string>();
        const found = await properties.lookup(request.query);
        return ok(found.map((property) => ({ ...property, editable: !lockedNow.has(property.name) })));
      },
    );
    app.get(
      "/properties/locked",
      {
        config: READ,
        schema: {
          tags,
          summary: "The property keys the caller's role may not edit (field-level access), for forms to disable them",
          description:
            "Catalogue properties and the IPTC texts kept in `properties` (headline, credit, copyrightNotice, usageTerms, instructions, city, country) alike; an edit of one answers 403 `property_not_editable`. Empty for administrators.",
          response: { 200: envelope(z.object({ locked: z.array(z.string()) })), ...catalogueErrors },
        },
      },
      async (request) => {
        const lockedNow = locked ? await locked(actorOf(request)) : new Set<string>();
        return ok({ locked: [...lockedNow].sort() });
      },
    );
    app.get(
      "/properties",
      {
        config: READ,
        schema: {
          tags,
          summary: "List story properties (paged)",
          querystring: propertyListQuery,
          response: { 200: envelope(page(storyPropertySchema)), ...catalogueErrors },
        },
      },
      async (request) => {
        const { content, total } = await properties.list(request.query);
        return ok(toPage(content, total, request.query));
      },
    );
    app.post(
      "/properties",
      {
        config: write(PERMISSION, "add"),
        schema: {
          tags,
          summary: "Create a story property",
          body: storyPropertyInput,
          response: { 200: envelope(storyPropertySchema), ...catalogueErrors },
        },
      },
      async (request) => ok(await properties.create(request.body)),
    );
    app.put(
      "/properties/:id",
      {
        config: write(PERMISSION, "edit"),
        schema: {
          tags,
          summary: "Change a story property",
          params: idParams,
          body: storyPropertyInput,
          response: { 200: envelope(storyPropertySchema), ...catalogueErrors },
        },
      },
      async (request) => ok(await properties.update(request.params.id, request.body)),
    );
    app.delete(
      "/properties/:id",
      {
        config: write(PERMISSION, "delete"),
        schema: {
          tags,
          summary: "Delete a story property (stories keep the values they hold)",
          params: idParams,
          response: { 200: envelope(z.null()), ...catalogueErrors },
        },
      },
      async (request) => {
        await properties.delete(request.params.id);
        return ok(null);
      },
    );
  };
}
