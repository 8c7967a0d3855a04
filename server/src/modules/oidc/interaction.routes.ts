import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { InteractionDetails, Provider } from "oidc-provider";
import { commonErrorResponses, envelope, errorEnvelope, ok } from "../../http/envelope.js";
import { Invalid } from "../../http/errors.js";
import { apiRoute } from "../../http/route.js";
import { TooManyAttempts } from "./auth-throttle.js";
import {
  interactionInfo,
  interactionParams,
  loginBody,
  redirectResult,
  registerBody,
  registeredUser,
} from "./oidc.schema.js";
import type { SignInService } from "./sign-in.service.js";

const errors = { ...commonErrorResponses, 429: errorEnvelope };

async function details(provider: Provider, request: FastifyRequest, reply: FastifyReply, uid: string) {
  let interaction: InteractionDetails;
  try {
    interaction = await provider.interactionDetails(request.raw, reply.raw);
  } catch {
    throw new Invalid(
      "this sign-in request has expired or belongs to another browser; start again",
      "interaction_expired",
    );
  }
  if (interaction.uid !== uid) throw new Invalid("this sign-in request does not match", "interaction_expired");
  return interaction;
}

/** Turns a throttle refusal into 429 with Retry-After. */
async function throttled<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof TooManyAttempts) reply.header("retry-after", String(error.retryAfterSeconds));
    throw error;
  }
}

/**
 * The JSON side of the login page (/user/login?uid=…): what the page shows,
 * the credentials check that finishes the provider's interaction, abort,
 * and self-registration. Paths are under the provider's mount (/uuas).
 */
export function interactionRoutes(provider: Provider, signIn: SignInService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ["sign-in"];
    app.get(
      "/interaction/:uid",
      apiRoute(
        { public: true },
        { tags, summary: "What the login page needs about a pending sign-in", params: interactionParams },
        interactionInfo,
        errors,
      ),
      async (request, reply) => {
        const interaction = await details(provider, request, reply, request.params.uid);
        const clientId = String(interaction.params.client_id ?? "");
        const client = await provider.Client.find(clientId);
        return ok({
          uid: interaction.uid,
          prompt: interaction.prompt.name,
          clientId,
          clientName: client?.clientName ?? clientId,
          loginHint: typeof interaction.params.login_hint === "string" ? interaction.params.login_hint : null,
          scope: String(interaction.params.scope ?? ""),
        });
      },
    );

    app.post(
      "/interaction/:uid/login",
      apiRoute(
        { public: true },
        {
          tags,
          summary: "Checks username and password and finishes the login step",
          description:
            "Unknown user and wrong password answer alike (400 invalid_credentials). Five failures per account or twenty per address in 15 minutes answer 429 with Retry-After.",
          params: interactionParams,
          body: loginBody,
        },
        redirectResult,
        errors,
      ),
      async (request, reply) => {
        await details(provider, request, reply, request.params.uid);
        const user = await throttled(reply, () =>
          signIn.login(request.body.username, request.body.password, {
            ip: request.ip,
            userAgent: request.headers["user-agent"] ?? null,
          }),
        );
        const redirectTo = await provider.interactionResult(
          request.raw,
          reply.raw,
          { login: { accountId: user.id } },
          { mergeWithLastSubmission: false },
        );
        return ok({ redirectTo });
      },
    );

    app.post(
      "/interaction/:uid/abort",
      apiRoute(
        { public: true },
        { tags, summary: "Cancels the sign-in; the client receives access_denied", params: interactionParams },
        redirectResult,
        errors,
      ),
      async (request, reply) => {
        await details(provider, request, reply, request.params.uid);
        const redirectTo = await provider.interactionResult(
          request.raw,
          reply.raw,
          { error: "access_denied", error_description: "the user cancelled sign-in" },
          { mergeWithLastSubmission: false },
        );
        return ok({ redirectTo });
      },
    );

    app.post(
      "/register",
      {
        config: { public: true },
        schema: {
          tags,
          summary: "Creates an account under the administrator's registration setting",
          description:
            "Off: 403 registration_closed. Approval (a new installation's default): the account is created disabled with the setting's role and `pending: true`. Open: enabled at once. Ten attempts per address per hour; then 429 with Retry-After.",
          body: registerBody,
          response: { 201: envelope(registeredUser), 403: errorEnvelope, 409: errorEnvelope, ...errors },
        },
      },
      async (request, reply) => {
        const user = await throttled(reply, () =>
          signIn.register(request.body, { ip: request.ip, userAgent: request.headers["user-agent"] ?? null }),
        );
        reply.status(201);
        return ok({ uuid: user.id, username: user.username, name: user.name, pending: user.status !== 1 });
      },
    );
  };
}
