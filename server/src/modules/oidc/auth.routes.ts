import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { commonErrorResponses, envelope, errorEnvelope, ok } from "../../http/envelope.js";
import "../auth/auth.types.js";
import { apiRoute } from "../../http/route.js";
import { authConfig, logoutResult } from "./oidc.schema.js";

export type AuthConfig = ReturnType<typeof authConfig.parse>;

export interface SignOut {
  /** Ends what the server holds for this grant (the embedded provider's grant, tokens and session). */
  endGrant(grantId: string): Promise<void>;
  /** The issuer's logout page when the browser must visit it (external issuer). */
  endSessionEndpoint(): Promise<string | null>;
}

/** Sign-in settings for the SPA, and logout. Under /dams/api/v1. */
export function authRoutes(config: () => Promise<AuthConfig>, signOut: SignOut): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      "/auth/config",
      apiRoute(
        { public: true },
        { tags: ["auth"], summary: "Where and how the SPA signs in (embedded provider or external issuer)" },
        authConfig,
        commonErrorResponses,
      ),
      async () => ok(await config()),
    );

    app.post(
      "/auth/logout",
      {
        config: { access: "authenticated" },
        schema: {
          tags: ["auth"],
          summary: "Signs out: ends the provider session and revokes the grant with all its tokens",
          security: [{ bearer: [] }],
          response: { 200: envelope(logoutResult), 401: errorEnvelope, ...commonErrorResponses },
        },
      },
      async (request) => {
        const grantId = request.principal?.via === "oidc" ? request.principal.grantId : undefined;
        if (grantId) await signOut.endGrant(grantId);
        return ok({ endSessionEndpoint: await signOut.endSessionEndpoint() });
      },
    );
  };
}
