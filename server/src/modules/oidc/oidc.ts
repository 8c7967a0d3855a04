import type { FastifyInstance } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { createLocalJWKSet, createRemoteJWKSet } from "jose";
import type { OidcConfig } from "../../config.js";
import type { Db } from "../../db/database.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { BearerVerifier } from "../auth/bearer.js";
import type { UsersService } from "../users/users.service.js";
import { type AuthConfig, authRoutes } from "./auth.routes.js";
import { AuthThrottle } from "./auth-throttle.js";
import { ExternalUsers } from "./external-users.js";
import { interactionRoutes } from "./interaction.routes.js";
import { OidcRepository } from "./oidc.repository.js";
import type { Clock } from "./oidc-adapter.js";
import { OIDC_MOUNT, SPA_SCOPE, TOKEN_ROUTE } from "./oidc-constants.js";
import { type OidcKeys, publicJwk } from "./oidc-keys.js";
import { createOidcVerifier } from "./oidc-verifier.js";
import { mountProvider } from "./provider-mount.js";
import { SignInService } from "./sign-in.service.js";

export interface OidcDependencies {
  config: OidcConfig;
  trustProxy: boolean;
  db: Db;
  users: UsersService;
  /** The embedded provider's signing and cookie keys, the same on every node (asked for only when it runs). */
  keys: () => Promise<OidcKeys>;
  /** Sign-ins (success and failure), registrations and provisioned users go to the operation log. */
  audit: AuditLog;
  clock?: Clock;
  /** Told after a grant of the embedded provider ended (the API auth hook's cached sign-ins are dropped). */
  grantEnded?: (grantId: string) => Promise<void>;
  /** How often expired provider rows and old throttle events are deleted. */
  sweepIntervalMs?: number;
}

export interface OidcModule {
  /** Verifies the issuer's JWT access tokens; give it to the API auth hook. */
  verifier: BearerVerifier;
  /** `/auth/config` and `/auth/logout`; register under the API prefix. */
  apiRoutes: FastifyPluginAsyncZod;
  /** Mounts the embedded provider and its login endpoints under /uuas (nothing for an external issuer). */
  mount(app: FastifyInstance): Promise<void>;
}

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  end_session_endpoint?: string;
  jwks_uri: string;
}

/** Fetches the external issuer's discovery document once (again after a failure). */
function discoveryOf(issuerUrl: string): () => Promise<Discovery> {
  let pending: Promise<Discovery> | undefined;
  const load = async (): Promise<Discovery> => {
    const response = await fetch(`${issuerUrl}/.well-known/openid-configuration`, {
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`OIDC discovery at ${issuerUrl} answered ${response.status}`);
    const document = (await response.json()) as Discovery;
    if (document.issuer.replace(/\/+$/, "") !== issuerUrl) {
      throw new Error(`OIDC discovery at ${issuerUrl} names another issuer: ${document.issuer}`);
    }
    return document;
  };
  return () => {
    pending ??= load().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}

function buildExternal(deps: OidcDependencies, external: NonNullable<OidcConfig["external"]>): OidcModule {
  const discovery = discoveryOf(external.issuerUrl);
  let remoteKeys: ReturnType<typeof createRemoteJWKSet> | undefined;
  const externalUsers = new ExternalUsers(deps.users, external.adminClaim, deps.audit, deps.clock);
  const verifier = createOidcVerifier({
    issuer: external.issuerUrl,
    audience: external.audience,
    algorithms: ["RS256", "PS256", "ES256", "EdDSA"],
    keys: async (header, token) => {
      remoteKeys ??= createRemoteJWKSet(new URL((await discovery()).jwks_uri));
      return remoteKeys(header, token);
    },
    resolveUser: (payload) => externalUsers.resolve(payload),
  });
  const config = async (): Promise<AuthConfig> => {
    const document = await discovery();
    return {
      issuer: document.issuer,
      authorizationEndpoint: document.authorization_endpoint,
      tokenEndpoint: document.token_endpoint,
      endSessionEndpoint: document.end_session_endpoint,
      clientId: deps.config.clientId,
      scope: SPA_SCOPE,
      redirectUri: deps.config.redirectUris[0]!,
      resource: URL.canParse(external.audience) ? external.audience : undefined,
    };
  };
  const signOut = {
    endGrant: async () => {},
    endSessionEndpoint: async () => (await discovery()).end_session_endpoint ?? null,
  };
  return { verifier, apiRoutes: authRoutes(config, signOut), mount: async () => {} };
}

async function buildEmbedded(deps: OidcDependencies): Promise<OidcModule> {
  const { config, db } = deps;
  const clock = deps.clock ?? (() => new Date());
  const issuer = `${config.publicBase}${OIDC_MOUNT}`;
  const resource = `${config.publicBase}/dams`;
  const keys = await deps.keys();
  // Loaded only when the embedded provider runs: importing oidc-provider prints a runtime warning on Node 20.
  const { createProvider } = await import("./oidc-provider.js");
  const repository = new OidcRepository(db, deps.grantEnded);
  const throttle = new AuthThrottle(db, clock);
  const provider = createProvider({
    issuer,
    resource,
    clientId: config.clientId,
    redirectUris: config.redirectUris,
    postLogoutRedirectUris: [`${config.publicBase}/`],
    loginPageUrl: `${config.publicBase}/user/login`,
    accessTokenTtlSeconds: config.accessTokenTtlSeconds,
    trustProxy: deps.trustProxy,
    keys,
    repository,
    clock,
    accounts: {
      async findAccount(id) {
        const user = await deps.users.account(id);
        if (user?.status !== 1) return undefined;
        return { id: user.id, username: user.username, name: user.name, avatarUrl: user.avatarUrl };
      },
    },
  });
  const verifier = createOidcVerifier({
    issuer,
    audience: resource,
    algorithms: ["RS256"],
    typ: "at+jwt",
    keys: createLocalJWKSet({ keys: keys.signing.map(publicJwk) }),
    resolveUser: async (payload) => payload.sub!,
    isGrantLive: (grantId) => repository.grantIsLive(grantId, clock().toISOString()),
  });
  const authConfig: AuthConfig = {
    issuer,
    authorizationEndpoint: `${issuer}/auth`,
    tokenEndpoint: `${issuer}${TOKEN_ROUTE}`,
    endSessionEndpoint: `${issuer}/session/end`,
    clientId: config.clientId,
    scope: SPA_SCOPE,
    prompt: "consent",
    redirectUri: config.redirectUris[0]!,
    resource,
  };
  const signOut = {
    async endGrant(grantId: string) {
      await repository.destroySessionsOfGrant(grantId);
      await repository.revokeGrant(grantId);
    },
    endSessionEndpoint: async () => null,
  };
  const signIn = new SignInService(deps.users, throttle, deps.audit);

  return {
    verifier,
    apiRoutes: authRoutes(
      async () => ({ ...authConfig, registration: (await deps.users.registrationSettings()).mode }),
      signOut,
    ),
    async mount(app) {
      await app.register(interactionRoutes(provider, signIn), { prefix: OIDC_MOUNT });
      await mountProvider(app, provider, OIDC_MOUNT, [...config.redirectUris, `${config.publicBase}/`]);
      const sweep = async () => {
        try {
          await repository.sweepExpired(clock().toISOString());
          await throttle.sweep();
        } catch (error) {
          app.log.warn({ err: error }, "sweeping expired sign-in records failed");
        }
      };
      const timer = setInterval(() => void sweep(), deps.sweepIntervalMs ?? 10 * 60_000);
      timer.unref();
      app.addHook("onClose", async () => clearInterval(timer));
    },
  };
}

/**
 * Sign-in for the API: the embedded OpenID Connect provider at /uuas, or,
 * when DAMS_OIDC_ISSUER_URL is set, an external issuer whose tokens are
 * verified through its JWKS and whose users are provisioned on first use.
 */
export function buildOidc(deps: OidcDependencies): Promise<OidcModule> {
  const external = deps.config.external;
  return external ? Promise.resolve(buildExternal(deps, external)) : buildEmbedded(deps);
}
