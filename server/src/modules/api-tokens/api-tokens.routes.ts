import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { commonErrorResponses, errorEnvelope, ok } from "../../http/envelope.js";
import { apiRoute } from "../../http/route.js";
import { currentUser } from "../auth/auth.plugin.js";
import { apiTokenIdParams, apiTokenSchema, createApiTokenBody, createdApiTokenSchema } from "./api-tokens.schema.js";
import type { ApiTokensService } from "./api-tokens.service.js";

const errors = { ...commonErrorResponses, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope };

/** The caller's own personal API tokens (the back area's "get token"). */
export function apiTokensRoutes(tokens: ApiTokensService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      "/api-tokens",
      apiRoute(
        { access: "authenticated" },
        { tags: ["api-tokens"], summary: "The caller's API tokens (never their secrets)" },
        z.array(apiTokenSchema),
        errors,
      ),
      async (request) => ok(await tokens.list(currentUser(request).id)),
    );
    app.post(
      "/api-tokens",
      apiRoute(
        { access: "authenticated" },
        {
          tags: ["api-tokens"],
          summary: "Create an API token; the secret is in this answer only",
          body: createApiTokenBody,
        },
        createdApiTokenSchema,
        errors,
      ),
      async (request) => ok(await tokens.create(currentUser(request).id, request.body)),
    );
    app.delete(
      "/api-tokens/:id",
      apiRoute(
        { access: "authenticated" },
        { tags: ["api-tokens"], summary: "Revoke one of the caller's API tokens", params: apiTokenIdParams },
        z.null(),
        errors,
      ),
      async (request) => {
        await tokens.revoke(currentUser(request).id, request.params.id);
        return ok(null);
      },
    );
  };
}
