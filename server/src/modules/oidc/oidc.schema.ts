import { z } from "zod";
import { REGISTRATION_MODES } from "../users/registration.js";

export const interactionParams = z.object({ uid: z.string().min(1).max(100) });

export const interactionInfo = z
  .object({
    uid: z.string(),
    prompt: z.string().describe("what the provider asks for: login, or consent"),
    clientId: z.string(),
    clientName: z.string(),
    loginHint: z.string().nullable(),
    scope: z.string(),
  })
  .meta({ id: "SignInInteraction" });

export const loginBody = z.object({
  username: z.string().min(1, "username is required").max(64),
  password: z.string().min(1, "password is required").max(1024),
});

export const redirectResult = z
  .object({ redirectTo: z.url().describe("where the browser continues the sign-in") })
  .meta({ id: "SignInRedirect" });

export const registerBody = z.object({
  username: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._@-]{1,63}$/, "username must be 2-64 letters, digits or . _ @ -"),
  name: z.string().trim().min(1, "name is required").max(100, "name must be at most 100 characters"),
  password: z.string().min(8, "password must be at least 8 characters").max(1024),
});

export const registeredUser = z
  .object({
    uuid: z.string(),
    username: z.string(),
    name: z.string(),
    pending: z.boolean().describe("true: the account waits, disabled, until an administrator enables it"),
  })
  .meta({ id: "RegisteredUser" });

export const authConfig = z
  .object({
    issuer: z.string(),
    authorizationEndpoint: z.string(),
    tokenEndpoint: z.string(),
    endSessionEndpoint: z.string().optional(),
    clientId: z.string(),
    scope: z.string(),
    prompt: z
      .string()
      .optional()
      .describe("send as `prompt`: consent is what OpenID Connect requires for offline_access; no screen is shown"),
    redirectUri: z.string(),
    resource: z.string().optional().describe("send as `resource` in the authorization and token requests"),
    registration: z
      .enum(REGISTRATION_MODES)
      .optional()
      .describe("the embedded sign-in's self-registration: off, approval (accounts wait for an administrator) or open"),
  })
  .meta({ id: "AuthConfig" });

export const logoutResult = z
  .object({
    endSessionEndpoint: z
      .string()
      .nullable()
      .describe("the issuer's logout page, for the browser to visit when the issuer is external"),
  })
  .meta({ id: "LogoutResult" });
