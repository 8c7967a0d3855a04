import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { crudRoutes } from "../../http/crud-routes.js";
import { ok } from "../../http/envelope.js";
import { apiRoute } from "../../http/route.js";
import { actorOf } from "../auth/actor.js";
import { can, inLibrary } from "../auth/route-config.js";
import {
  metadataTemplateBody,
  metadataTemplateSchema,
  templateApplyParams,
  templateIdParams,
  templateListQuery,
  templateValues,
} from "./metadata-templates.schema.js";
import type { MetadataTemplatesService } from "./metadata-templates.service.js";

const PERMISSION = "manage.setting.template";

/** /metadata-templates: the back area's templates (/manage/setting/template) and their use on the upload pages. */
export function metadataTemplatesRoutes(templates: MetadataTemplatesService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ["metadata templates"];
    crudRoutes(app, {
      tags,
      path: "/metadata-templates",
      itemPath: "/metadata-templates/:templateId",
      item: metadataTemplateSchema,
      body: metadataTemplateBody,
      params: templateIdParams,
      list: {
        config: { access: "authenticated" },
        summary: "Metadata templates, by name (the upload pages offer them)",
        querystring: templateListQuery,
        run: (query) => templates.list(query),
      },
      create: {
        config: can(PERMISSION, "add"),
        summary: "Create a metadata template",
        run: (body, request) => templates.create(actorOf(request), body),
      },
      update: {
        config: can(PERMISSION, "edit"),
        summary: "Edit a metadata template",
        run: ({ templateId }, body, request) => templates.update(actorOf(request), templateId, body),
      },
      remove: {
        config: can(PERMISSION, "delete"),
        summary: "Delete a metadata template",
        run: ({ templateId }, request) => templates.remove(actorOf(request), templateId),
      },
    });
    app.get(
      "/metadata-templates/:templateId/apply/:libraryId",
      apiRoute(
        inLibrary("authenticated", "read"),
        {
          tags,
          summary: "A template's values for the caller uploading into a library: {date}, {user}, {library} replaced",
          params: templateApplyParams,
        },
        templateValues,
      ),
      async (request) =>
        ok(await templates.apply(actorOf(request), request.params.templateId, request.params.libraryId)),
    );
  };
}
