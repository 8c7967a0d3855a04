import type { JWK } from "jose";
import Provider, {
  type ClientInstance,
  errors,
  interactionPolicy,
  type KoaContextWithOIDC,
  type Middleware,
} from "oidc-provider";
import { messageForStatus, statusCodes } from "../../http/errors.js";
import type { OidcRepository } from "./oidc.repository.js";
import type { Clock } from "./oidc-adapter.js";
import { oidcAdapterFactory } from "./oidc-adapter.js";
import { SPA_SCOPE, SSO_CLAIMS, TOKEN_ROUTE } from "./oidc-constants.js";
import type { OidcKeys } from "./oidc-keys.js";

export interface Account {
  id: string;
  username: string;
  name: string;
  avatarUrl: string | null;
}

/** Where the provider looks accounts up; the users module provides it. */
export interface AccountSource {
  findAccount(id: string): Promise<Account | undefined>;
}

export interface ProviderSettings {
  issuer: string;
  /** The resource indicator of the API; the `aud` of its access tokens. */
  resource: string;
  clientId: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  /** The SPA page that runs the login interaction (`?uid=` is appended). */
  loginPageUrl: string;
  accessTokenTtlSeconds: number;
  trustProxy: boolean;
  keys: OidcKeys;
  accounts: AccountSource;
  repository: OidcRepository;
  clock: Clock;
}

const DAY = 24 * 60 * 60;

/**
 * OpenID Connect Core grants offline_access (a refresh token) only with
 * prompt=consent. The SPA is first-party and has no consent screen, so
 * prompt=consent is accepted without asking anything: consent is still
 * requested when scopes are missing from the grant, and loadExistingGrant
 * grants them for the SPA.
 */
function firstPartyPolicy() {
  const policy = interactionPolicy.base();
  policy.get("consent")?.checks.remove("consent_prompt");
  return policy;
}
const INTERACTION_TTL = 60 * 60;

function ssoClaims(account: Account) {
  return { name: account.name, preferred_username: account.username, picture: account.avatarUrl ?? undefined };
}

/**
 * The embedded OpenID Connect provider: one public client (the SPA), code +
 * PKCE S256 only, JWT access tokens for the API resource, rotating refresh
 * tokens, storage in our database, and our own login page.
 */
export function createProvider(settings: ProviderSettings): Provider {
  const { resource, clientId, accounts } = settings;
  const apiResourceServer = {
    scope: "sso",
    audience: resource,
    accessTokenTTL: settings.accessTokenTtlSeconds,
    accessTokenFormat: "jwt",
    jwt: { sign: { alg: "RS256" } },
  };

  const provider = new Provider(settings.issuer, {
    adapter: oidcAdapterFactory(settings.repository, settings.clock, clientId),
    jwks: { keys: settings.keys.signing as JWK[] },
    cookies: {
      keys: settings.keys.cookieKeys,
      long: { httpOnly: true, sameSite: "lax", signed: true },
      short: { httpOnly: true, sameSite: "lax", signed: true },
      names: { interaction: INTERACTION_COOKIE },
    },
    clients: [
      {
        client_id: clientId,
        client_name: "dams newsroom",
        application_type: "web",
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        redirect_uris: settings.redirectUris,
        post_logout_redirect_uris: settings.postLogoutRedirectUris,
      },
    ],
    responseTypes: ["code"],
    scopes: ["openid", "offline_access", "sso"],
    claims: { openid: ["sub"], sso: [...SSO_CLAIMS] },
    pkce: { required: () => true },
    allowOmittingSingleRegisteredRedirectUri: false,
    routes: { token: TOKEN_ROUTE },
    clockTolerance: 5,
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      rpInitiatedLogout: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => resource,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx: KoaContextWithOIDC, indicator: string) => {
          if (indicator !== resource) throw new errors.InvalidTarget();
          return apiResourceServer;
        },
      },
    },
    ttl: {
      AccessToken: settings.accessTokenTtlSeconds,
      AuthorizationCode: 60,
      IdToken: 60 * 60,
      Interaction: INTERACTION_TTL,
      Session: 14 * DAY,
      Grant: 14 * DAY,
      // Rotated refresh tokens inherit what is left of the first one's life.
      RefreshToken: (ctx: { oidc?: { entities?: { RotatedRefreshToken?: { remainingTTL: number } } } }) =>
        ctx?.oidc?.entities?.RotatedRefreshToken?.remainingTTL ?? 14 * DAY,
    },
    rotateRefreshToken: true,
    issueRefreshToken: async (
      _ctx: unknown,
      client: ClientInstance & { grantTypeAllowed(type: string): boolean },
      source: { scopes: Set<string> },
    ) => client.grantTypeAllowed("refresh_token") && source.scopes.has("offline_access"),
    interactions: {
      policy: firstPartyPolicy(),
      url: async (_ctx: unknown, interaction: { uid: string }) =>
        `${settings.loginPageUrl}?uid=${encodeURIComponent(interaction.uid)}`,
    },
    // The SPA is first-party: its grant is made without a consent screen.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const { client, session, result } = ctx.oidc;
      if (!client || !session) return undefined;
      const grantId = result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      const existing = grantId ? await provider.Grant.find(grantId) : undefined;
      if (existing || client.clientId !== clientId || !session.accountId) return existing;
      const grant = new provider.Grant({ accountId: session.accountId, clientId });
      grant.addOIDCScope(SPA_SCOPE);
      grant.addResourceScope(resource, apiResourceServer.scope);
      await grant.save();
      return grant;
    },
    findAccount: async (_ctx: unknown, sub: string) => {
      const account = await accounts.findAccount(sub);
      if (!account) return undefined;
      return { accountId: account.id, claims: async () => ({ sub: account.id, ...ssoClaims(account) }) };
    },
    formats: {
      customizers: {
        // The grant id lets the API refuse tokens of a revoked grant (logout, code or refresh token replay).
        jwt: async (
          _ctx: unknown,
          token: { grantId?: string; accountId?: string; scopes: Set<string> },
          jwt: { payload: Record<string, unknown> },
        ) => {
          if (token.grantId) jwt.payload.grant_id = token.grantId;
          if (token.accountId && token.scopes.has("sso")) {
            const account = await accounts.findAccount(token.accountId);
            if (account) Object.assign(jwt.payload, ssoClaims(account));
          }
        },
      },
    },
    renderError: async (ctx: { type: string; body: unknown }, out: { error: string; error_description?: string }) => {
      ctx.type = "json";
      ctx.body = out;
    },
  });
  provider.proxy = settings.trustProxy;
  provider.use(interactionCookieForApi(settings));
  provider.use(errorsInTheEnvelope());
  return provider;
}

/**
 * The provider's errors in the API's envelope too: a path it does not know
 * (Koa's bare "Not Found") gets `{ code, msg, error }`; a protocol error
 * (`{ error, error_description }`, RFC 6749) keeps its fields, which OAuth
 * clients read, and gains `code` and `msg`.
 */
function errorsInTheEnvelope(): Middleware {
  return async (ctx, next) => {
    await next();
    const status = ctx.status;
    if (status < 400) return;
    const body = ctx.body as unknown;
    if (body === undefined || body === null) {
      ctx.body = { code: status, msg: messageForStatus(status), error: statusCodes[status] ?? "error" };
      ctx.status = status;
    } else if (typeof body === "object" && !Buffer.isBuffer(body) && "error" in body && !("code" in body)) {
      const description = (body as { error_description?: unknown }).error_description;
      ctx.body = {
        code: status,
        msg: typeof description === "string" ? description : messageForStatus(status),
        ...body,
      };
      ctx.status = status;
    }
  };
}

/**
 * oidc-provider scopes its interaction cookie to the login page's path
 * (/user/login), where the SPA is served; the page's JSON calls go to
 * /uuas/interaction/<uid>. The same signed cookie is therefore also set for
 * that path, so those calls stay bound to the browser that started sign-in.
 */
function interactionCookieForApi(settings: ProviderSettings): Middleware {
  const loginPage = new URL(settings.loginPageUrl);
  return async (ctx, next) => {
    await next();
    if (ctx.status !== 303) return;
    const location = URL.parse(ctx.response.get("location"), loginPage);
    if (!location || location.origin !== loginPage.origin || location.pathname !== loginPage.pathname) return;
    const uid = location.searchParams.get("uid");
    if (!uid) return;
    ctx.cookies.set(INTERACTION_COOKIE, uid, {
      ...INTERACTION_COOKIE_OPTIONS,
      path: `${interactionApiPath(settings.issuer)}/${uid}`,
    });
  };
}

export const INTERACTION_COOKIE = "_interaction";
const INTERACTION_COOKIE_OPTIONS = { httpOnly: true, sameSite: "lax", signed: true, maxAge: INTERACTION_TTL * 1000 };

/** Path of the JSON interaction endpoints, under the issuer's path. */
export function interactionApiPath(issuer: string): string {
  return `${new URL(issuer).pathname.replace(/\/$/, "")}/interaction`;
}
