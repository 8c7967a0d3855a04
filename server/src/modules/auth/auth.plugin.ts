import type { FastifyContextConfig, FastifyInstance, FastifyRequest, RouteOptions } from "fastify";
import { Forbidden, Unauthorized } from "../../http/errors.js";
import type { LibraryAccess } from "../access/library-access.js";
import { hasPermission, isAction, isAdminOnlyPermission, LIBRARY_LEVELS } from "../access/permissions.js";
import type { AuthRepository } from "./auth.repository.js";
import type { AuthenticatedUser } from "./auth.types.js";
import "./auth.types.js";
import type { BearerVerifier, Principal } from "./bearer.js";

export interface ApiAuthOptions {
  /** Every route under this prefix must declare its access. */
  prefix: string;
  /** Asked in order; the first to recognise the token answers. */
  verifiers: BearerVerifier[];
  users: AuthRepository;
  libraries: LibraryAccess;
  /** Routes under these paths that others register (OpenAPI document, Swagger UI) and that are public. */
  publicPaths?: string[];
  /** Last access is recorded at most once per this interval per user. */
  accessRecordIntervalMs?: number;
  clock?: () => Date;
}

export class RouteDeclarationError extends Error {}

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

function describeRoute(route: RouteOptions): string {
  return `${Array.isArray(route.method) ? route.method.join(",") : route.method} ${route.url}`;
}

/** Checks a route's access declaration once, at start-up. */
function checkDeclaration(route: RouteOptions): void {
  const config = route.config ?? {};
  const where = describeRoute(route);
  const fail = (problem: string): never => {
    throw new RouteDeclarationError(
      `${where}: ${problem}. Every API route declares config: { public: true } or { access: 'authenticated' | 'admin' | { permission, action } }`,
    );
  };
  if (config.public === true) {
    if (config.access !== undefined || config.library !== undefined) fail("a public route declares no access");
    return;
  }
  const access = config.access;
  if (access === undefined) fail("no access declared");
  if (typeof access === "object") {
    if (typeof access.permission !== "string" || access.permission.length === 0) fail("access.permission is empty");
    if (!isAction(access.action)) fail(`access.action ${String(access.action)} is not an action`);
  } else if (access !== "authenticated" && access !== "admin") {
    fail(`access ${String(access)} is not known`);
  }
  if (config.library) {
    if (!route.url.includes(`:${config.library.param}`))
      fail(`library.param ${config.library.param} is not a path parameter`);
    if (!LIBRARY_LEVELS.includes(config.library.level)) fail(`library.level ${config.library.level} is not a level`);
  }
}

function describeAccess(config: FastifyContextConfig): string {
  const access = config.access;
  const who =
    access === "admin"
      ? "administrators"
      : access === "authenticated" || access === undefined
        ? "any signed-in user"
        : `permission \`${access.permission}\`, action \`${access.action}\``;
  const library = config.library ? `; \`${config.library.level}\` on the library \`${config.library.param}\`` : "";
  return `${who}${library}`;
}

function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (!header)
    throw new Unauthorized("an access token is required: send Authorization: Bearer <token>", "token_missing");
  const match = BEARER.exec(header);
  if (!match?.[1]) throw new Unauthorized("the Authorization header must be 'Bearer <token>'", "token_malformed");
  return match[1];
}

function hasTokenInQuery(request: FastifyRequest): boolean {
  const query = request.query;
  if (query && typeof query === "object" && "access_token" in query) return true;
  return /[?&]access_token=/.test(request.url);
}

/**
 * The one authentication and authorization hook of the API. It runs at
 * onRequest, before the body is read or validated: an anonymous or
 * unauthorised caller can neither make us parse a large body nor learn the
 * shape of a request from validation messages.
 */
export function registerApiAuth(app: FastifyInstance, options: ApiAuthOptions): void {
  const { prefix, verifiers, users, libraries } = options;
  const publicPaths = options.publicPaths ?? [];
  const interval = options.accessRecordIntervalMs ?? 60_000;
  const clock = options.clock ?? (() => new Date());
  const underPrefix = (url: string) => url === prefix || url.startsWith(`${prefix}/`);

  app.decorateRequest("principal", null);
  app.decorateRequest("currentUser", null);

  app.addHook("onRoute", (route) => {
    if (!underPrefix(route.url)) return;
    if (publicPaths.some((path) => route.url === path || route.url.startsWith(`${path}/`))) {
      route.config = { ...route.config, public: true };
      return;
    }
    checkDeclaration(route);
    // The OpenAPI document says which operations need the bearer token, and what else.
    if (route.config?.public !== true) {
      const description = [route.schema?.description, `Access: ${describeAccess(route.config ?? {})}.`];
      route.schema = {
        ...route.schema,
        security: [{ bearer: [] }],
        description: description.filter(Boolean).join("\n\n"),
      };
    }
  });

  async function authenticate(token: string): Promise<Principal> {
    for (const verifier of verifiers) {
      const principal = await verifier.verify(token);
      if (principal) return principal;
    }
    throw new Unauthorized("the access token is not valid", "token_invalid");
  }

  async function recordAccess(user: AuthenticatedUser, ip: string): Promise<void> {
    const now = clock();
    const last = user.lastAccessTime ? Date.parse(user.lastAccessTime) : Number.NEGATIVE_INFINITY;
    if (now.getTime() - last < interval) return;
    const staleBefore = new Date(now.getTime() - interval).toISOString();
    if (await users.recordAccess(user.id, ip, now.toISOString(), staleBefore)) {
      user.lastAccessIp = ip;
      user.lastAccessTime = now.toISOString();
    }
  }

  app.addHook("onRequest", async (request, reply) => {
    const url = request.routeOptions.url;
    if (url === undefined || !underPrefix(url)) return;
    const config = request.routeOptions.config;
    try {
      if (hasTokenInQuery(request)) {
        throw new Unauthorized(
          "a token in the query string is refused: send it in the Authorization header",
          "token_in_query",
        );
      }
      if (config.public === true) return;
      const principal = await authenticate(bearerToken(request));
      const user = await users.loadUser(principal.userId);
      if (user?.status !== 1) throw new Unauthorized("the account does not exist or is disabled", "account_disabled");
      request.principal = principal;
      request.currentUser = user;
      await recordAccess(user, request.ip);
    } catch (error) {
      if (error instanceof Unauthorized) reply.header("www-authenticate", 'Bearer realm="dams"');
      throw error;
    }

    const user = request.currentUser;
    const access = config.access;
    if (access === undefined) throw new Forbidden(); // fail closed; checkDeclaration makes this unreachable
    if (access === "admin" && !user.admin) throw new Forbidden();
    if (typeof access === "object" && !user.admin) {
      if (
        isAdminOnlyPermission(access.permission) ||
        !hasPermission(user.permissions, access.permission, access.action)
      ) {
        throw new Forbidden();
      }
    }
    if (config.library) {
      const libraryId = (request.params as Record<string, string | undefined>)[config.library.param];
      if (!libraryId) throw new Forbidden();
      await libraries.require(user, libraryId, config.library.level);
    }
  });
}

/** The signed-in user of a route that declared access; throws if a route forgot to. */
export function currentUser(request: FastifyRequest): AuthenticatedUser {
  if (!request.currentUser) throw new Unauthorized();
  return request.currentUser;
}
