import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { apiErrorResponses, envelope, ok, page, toPage } from "../../http/envelope.js";
import { actorOf } from "../auth/actor.js";
import { inLibrary } from "../auth/route-config.js";
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
      {
        config: { access: "authenticated" },
        schema: {
          tags,
          summary: "Metadata templates, by name (the upload pages offer them)",
          querystring: templateListQuery,
          response: { 200: envelope(page(metadataTemplateSchema)), ...apiErrorResponses },
        },
      },
      async (request) => {
        const { content, total } = await templates.list(request.query);
        return ok(toPage(content, total, request.query));
      },
    );
    app.post(
      "/metadata-templates",
      {
        config: { access: { permission: PERMISSION, action: "add" } },
        schema: {
          tags,
          summary: "Create a metadata template",
          body: metadataTemplateBody,
          response: { 200: envelope(metadataTemplateSchema), ...apiErrorResponses },
        },
      },
      async (request) => ok(await templates.create(actorOf(request), request.body)),
    );
    app.put(
      "/metadata-templates/:templateId",
      {
        config: { access: { permission: PERMISSION, action: "edit" } },
        schema: {
          tags,
          summary: "Edit a metadata template",
          params: templateIdParams,
          body: metadataTemplateBody,
          response: { 200: envelope(metadataTemplateSchema), ...apiErrorResponses },
        },
      },
      async (request) => ok(await templates.update(actorOf(request), request.params.templateId, request.body)),
    );
    app.delete(
      "/metadata-templates/:templateId",
      {
        config: { access: { permission: PERMISSION, action: "delete" } },
        schema: {
          tags,
          summary: "Delete a metadata template",
          params: templateIdParams,
          response: { 200: envelope(z.null()), ...apiErrorResponses },
        },
      },
      async (request) => {
        await templates.remove(actorOf(request), request.params.templateId);
        return ok(null);
      },
    );
    app.get(
      "/metadata-templates/:templateId/apply/:libraryId",
      {
        config: inLibrary("authenticated", "read"),
        schema: {
          tags,
          summary: "A template's values for the caller uploading into a library: {date}, {user}, {library} replaced",
          params: templateApplyParams,
          response: { 200: envelope(templateValues), ...apiErrorResponses },
        },
      },
      async (request) =>
        ok(await templates.apply(actorOf(request), request.params.templateId, request.params.libraryId)),
    );
  };
}
