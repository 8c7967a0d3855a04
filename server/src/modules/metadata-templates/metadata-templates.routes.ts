import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ok, okPage, page } from "../../http/envelope.js";
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
    app.get(
      "/metadata-templates",
      apiRoute(
        { access: "authenticated" },
        { tags, summary: "Metadata templates, by name (the upload pages offer them)", querystring: templateListQuery },
        page(metadataTemplateSchema),
      ),
      async (request) => okPage(await templates.list(request.query), request.query),
    );
    app.post(
      "/metadata-templates",
      apiRoute(
        can(PERMISSION, "add"),
        { tags, summary: "Create a metadata template", body: metadataTemplateBody },
        metadataTemplateSchema,
      ),
      async (request) => ok(await templates.create(actorOf(request), request.body)),
    );
    app.put(
      "/metadata-templates/:templateId",
      apiRoute(
        can(PERMISSION, "edit"),
        { tags, summary: "Edit a metadata template", params: templateIdParams, body: metadataTemplateBody },
        metadataTemplateSchema,
      ),
      async (request) => ok(await templates.update(actorOf(request), request.params.templateId, request.body)),
    );
    app.delete(
      "/metadata-templates/:templateId",
      apiRoute(
        can(PERMISSION, "delete"),
        { tags, summary: "Delete a metadata template", params: templateIdParams },
        z.null(),
      ),
      async (request) => {
        await templates.remove(actorOf(request), request.params.templateId);
        return ok(null);
      },
    );
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
