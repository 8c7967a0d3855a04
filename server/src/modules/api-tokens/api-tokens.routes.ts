import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { commonErrorResponses, envelope, errorEnvelope, ok } from "../../http/envelope.js";
import { currentUser } from "../auth/auth.plugin.js";
import { apiTokenIdParams, apiTokenSchema, createApiTokenBody, createdApiTokenSchema } from "./api-tokens.schema.js";
import type { ApiTokensService } from "./api-tokens.service.js";

const errors = { ...commonErrorResponses, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope };

/** The caller's own personal API tokens (the back area's "get token"). */
export function apiTokensRoutes(tokens: ApiTokensService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      "/api-tokens",
      {
        config: { access: "authenticated" },
        schema: {
          tags: ["api-tokens"],
          summary: "The caller's API tokens (never their secrets)",
          response: { 200: envelope(z.array(apiTokenSchema)), ...errors },
        },
      },
      async (request) => ok(await tokens.list(currentUser(request).id)),
    );
    app.post(
      "/api-tokens",
      {
        config: { access: "authenticated" },
        schema: {
          tags: ["api-tokens"],
          summary: "Create an API token; the secret is in this answer only",
          body: createApiTokenBody,
          response: { 200: envelope(createdApiTokenSchema), ...errors },
        },
      },
      async (request) => ok(await tokens.create(currentUser(request).id, request.body)),
    );
    app.delete(
      "/api-tokens/:id",
      {
        config: { access: "authenticated" },
        schema: {
          tags: ["api-tokens"],
          summary: "Revoke one of the caller's API tokens",
          params: apiTokenIdParams,
          response: { 200: envelope(z.null()), ...errors },
        },
      },
      async (request) => {
        await tokens.revoke(currentUser(request).id, request.params.id);
        return ok(null);
      },
    );
  };
}
