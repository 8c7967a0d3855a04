import { hash } from "node:crypto";
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from "fastify";
import { Forbidden, Unauthorized } from "../../http/errors.js";
import type { RequestStart } from "../../http/request-start.js";
import type { AuthenticatedUser, RouteAccess, ShareVisitResolver } from "./auth.types.js";
import {
  hasPermission,
  isAction,
  isAdminOnlyPermission,
  LIBRARY_LEVELS,
  type LibraryLevel,
  type LibraryUser,
} from "./permissions.js";
import "./auth.types.js";
import type { BearerVerifier, Principal } from "./bearer.js";
import { type SignedIn, signedInTags } from "./signed-in-cache.js";

/**
 * The accounts the hook reads on every call and whose last access it records
 * (the access module's AuthenticatedUsers: the users module's account and the
 * role's permissions).
 */
export interface AuthUsers {
  loadUser(id: string): Promise<AuthenticatedUser | undefined>;
  /** Records the last access unless another request did so after `staleBefore`; true when written. */
  recordAccess(id: string, ip: string, now: string, staleBefore: string): Promise<boolean>;
}

export interface ApiAuthOptions {
  /** The server's one onRequest hook (request-start.ts), which runs this guard after the security headers. */
  requestStart: RequestStart;
  /** Every route under this prefix must declare its access. */
  prefix: string;
  /** Asked in order; the first to recognise the token answers. */
  verifiers: BearerVerifier[];
  users: AuthUsers;
  /** Decides the `share` kind of access (share links' visitors); without it such routes answer 403. */
  shares?: ShareVisitResolver;
  /** Checks a route's library level (the libraries module's service: an archived library is read-only). */
  libraries: {
    require(user: LibraryUser, libraryId: string, level: LibraryLevel): Promise<unknown>;
    /** Whether `require` is known to pass without waiting (the user's levels kept); false: ask `require`. */
    known?(user: LibraryUser, libraryId: string, level: LibraryLevel): boolean;
  };
  /** Routes under these paths that others register (OpenAPI document, Swagger UI) and that are public. */
  publicPaths?: string[];
  /**
   * Paths outside the API whose routes this hook guards as well, with HTTP
   * Basic credentials instead of a bearer token: a user's name and one of
   * their personal API tokens as the password (WebDAV clients know no bearer
   * tokens). Their routes declare access like any other.
   */
  basicPrefixes?: string[];
  /** Checks the password of Basic credentials (the personal API tokens' verifier); null refuses it. */
  basicVerifier?: BearerVerifier;
  /**
   * Sign-ins kept per token for a few seconds (a SharedCache, dropped on every
   * node when an account, role, grant or token changes): without it, every
   * request verifies the token and loads the account and its permissions.
   */
  signedIn?: {
    get(key: string, load: () => Promise<SignedIn>, tags: (value: SignedIn) => readonly string[]): Promise<SignedIn>;
    /** The kept sign-in when it is loaded, without waiting. */
    peek(key: string): SignedIn | undefined;
    forget(key: string): void;
  };
  /** Last access is recorded at most once per this interval per user. */
  accessRecordIntervalMs?: number;
  clock?: () => Date;
}

export class RouteDeclarationError extends Error {}

/**
 * A sign-in's cache key: the whole Authorization header's digest (Basic credentials are checked as a
 * pair), and its kind: a bearer token accepted by the API is no password for WebDAV.
 */
function signedInKey(header: string, basic: boolean): string {
  // One-shot crypto.hash: a third of createHash's cost for a short input (0.31 against 0.84 µs).
  return `${basic ? "basic" : "bearer"} ${hash("sha256", header, "base64url")}`;
}

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
const BASIC = /^Basic +([A-Za-z0-9+/]+=*) *$/i;

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
  if (config.access === "share") {
    if (config.library !== undefined) fail("a share visitor's route declares no library: the share decides");
    return;
  }
  if (config.shareBeforeUnlock !== undefined) fail("shareBeforeUnlock goes with access 'share'");
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
  if (access === "share") {
    return "a share link's visitor: header `X-Share-Token` (and `X-Share-Session` once a password was given)";
  }
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

/** The user name and password of `Authorization: Basic …` (RFC 7617, UTF-8). */
function basicCredentials(request: FastifyRequest): { username: string; password: string } {
  const header = request.headers.authorization;
  if (!header) {
    throw new Unauthorized(
      "credentials are required: your user name and a personal API token as the password",
      "credentials_missing",
    );
  }
  const match = BASIC.exec(header);
  if (!match?.[1]) throw new Unauthorized("the Authorization header must be 'Basic <credentials>'", "token_malformed");
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) throw new Unauthorized("Basic credentials are 'name:password'", "token_malformed");
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

function hasTokenInQuery(request: FastifyRequest): boolean {
  const query = request.query;
  if (query && typeof query === "object" && "access_token" in query) return true;
  return /[?&]access_token=/.test(request.url);
}

/**
 * The one authentication and authorization check of the API. It runs at
 * onRequest (the last step of the request-start hook, after the security
 * headers), before the body is read or validated: an anonymous or
 * unauthorised caller can neither make us parse a large body nor learn the
 * shape of a request from validation messages.
 */
export function registerApiAuth(app: FastifyInstance, options: ApiAuthOptions): void {
  const { prefix, verifiers, users, libraries } = options;
  const publicPaths = options.publicPaths ?? [];
  const interval = options.accessRecordIntervalMs ?? 60_000;
  const clock = options.clock ?? (() => new Date());
  const under = (url: string, base: string) => url === base || url.startsWith(`${base}/`);
  const basicPrefixes = options.basicPrefixes ?? [];
  const underBasic = (url: string) => basicPrefixes.some((base) => under(url, base));
  const underPrefix = (url: string) => under(url, prefix) || underBasic(url);

  app.decorateRequest("principal", null);
  app.decorateRequest("currentUser", null);
  app.decorateRequest("shareVisit", null);

  app.addHook("onRoute", (route) => {
    if (!underPrefix(route.url)) return;
    if (publicPaths.some((path) => route.url === path || route.url.startsWith(`${path}/`))) {
      route.config = { ...route.config, public: true };
      return;
    }
    checkDeclaration(route);
    if (underBasic(route.url)) {
      if (route.config?.public === true || route.config?.access === "share")
        throw new RouteDeclarationError(
          `${describeRoute(route)}: routes with Basic credentials declare a user's access`,
        );
      return;
    }
    // The OpenAPI document says which operations need the bearer token, and what else.
    if (route.config?.access === "share") {
      const description = [route.schema?.description, `Access: ${describeAccess(route.config)}.`];
      route.schema = { ...route.schema, description: description.filter(Boolean).join("\n\n") };
    } else if (route.config?.public !== true) {
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

  async function authenticateBearer(token: string): Promise<SignedIn> {
    const principal = await authenticate(token);
    const user = await users.loadUser(principal.userId);
    if (user?.status !== 1) throw new Unauthorized("the account does not exist or is disabled", "account_disabled");
    return { principal, user };
  }

  /** Basic credentials: the password is a personal API token, and the name must be its owner's. */
  async function authenticateBasic(request: FastifyRequest): Promise<SignedIn> {
    const { username, password } = basicCredentials(request);
    const principal = options.basicVerifier ? await options.basicVerifier.verify(password) : null;
    if (!principal) throw new Unauthorized("the password must be one of your personal API tokens", "token_invalid");
    const user = await users.loadUser(principal.userId);
    if (user?.status !== 1) throw new Unauthorized("the account does not exist or is disabled", "account_disabled");
    if (user.username.normalize("NFC") !== username.normalize("NFC")) {
      throw new Unauthorized("the user name is not the token's owner's", "credentials_mismatch");
    }
    return { principal, user };
  }

  function authenticateRequest(request: FastifyRequest, basic: boolean): Promise<SignedIn> {
    return basic ? authenticateBasic(request) : authenticateBearer(bearerToken(request));
  }

  /**
   * The caller, from the cache when the same Authorization header was seen
   * in the last few seconds (the whole header is the key: Basic credentials
   * are checked as a pair). Only successes are kept; a token past its expiry
   * is looked at again, so it is refused as before.
   */
  async function signIn(request: FastifyRequest, basic: boolean): Promise<SignedIn> {
    const cache = options.signedIn;
    const header = request.headers.authorization;
    if (!cache || !header) return authenticateRequest(request, basic);
    const key = signedInKey(header, basic);
    const signedIn = await cache.get(key, () => authenticateRequest(request, basic), signedInTags);
    const expiresAt = signedIn.principal.expiresAt;
    if (expiresAt === undefined || expiresAt > clock().getTime()) return signedIn;
    cache.forget(key);
    return authenticateRequest(request, basic);
  }

  /** Whether the user's last access is older than the interval (then it is recorded). */
  function accessRecordDue(user: AuthenticatedUser, now: number): boolean {
    const last = user.lastAccessTime ? Date.parse(user.lastAccessTime) : Number.NEGATIVE_INFINITY;
    return now - last >= interval;
  }

  async function recordAccess(user: AuthenticatedUser, ip: string): Promise<void> {
    const now = clock();
    if (!accessRecordDue(user, now.getTime())) return;
    const staleBefore = new Date(now.getTime() - interval).toISOString();
    if (await users.recordAccess(user.id, ip, now.toISOString(), staleBefore)) {
      user.lastAccessIp = ip;
      user.lastAccessTime = now.toISOString();
    }
  }

  async function check(
    request: FastifyRequest,
    reply: FastifyReply,
    url: string,
    config: FastifyContextConfig,
  ): Promise<void> {
    const basic = underBasic(url);
    try {
      if (hasTokenInQuery(request)) {
        throw new Unauthorized(
          "a token in the query string is refused: send it in the Authorization header",
          "token_in_query",
        );
      }
      if (config.public === true) return;
      if (config.access === "share") {
        // A visitor is never a user: a bearer token here is not read, a share token is.
        if (!options.shares) throw new Forbidden();
        request.shareVisit = await options.shares.resolve(request, config.shareBeforeUnlock !== true);
        return;
      }
      const { principal, user } = await signIn(request, basic);
      request.principal = principal;
      request.currentUser = user;
      await recordAccess(user, request.ip);
    } catch (error) {
      if (error instanceof Unauthorized) {
        reply.header("www-authenticate", basic ? 'Basic realm="dams", charset="UTF-8"' : 'Bearer realm="dams"');
      }
      throw error;
    }

    const user = request.currentUser;
    const access = config.access;
    if (access === undefined) throw new Forbidden(); // fail closed; checkDeclaration makes this unreachable
    if (!permits(user, access)) throw new Forbidden();
    if (config.library) {
      const libraryId = (request.params as Record<string, string | undefined>)[config.library.param];
      if (!libraryId) throw new Forbidden();
      await libraries.require(user, libraryId, config.library.level);
    }
  }

  /**
   * The check decided without waiting, when all it needs is known: a public
   * route, or a caller signed in with the same Authorization header within
   * the cache's lifetime (not expired, the last access recorded lately) whose
   * permission passes and whose level on the route's library is kept. True:
   * the request goes on (the caller set); false: `check` decides, refusals
   * included. Most API calls take this path, with no promise and no statement.
   */
  function passesAtOnce(request: FastifyRequest, url: string, config: FastifyContextConfig): boolean {
    if (hasTokenInQuery(request)) return false;
    if (config.public === true) return true;
    const access = config.access;
    const header = request.headers.authorization;
    if (access === undefined || access === "share" || !header || !options.signedIn) return false;
    const signedIn = options.signedIn.peek(signedInKey(header, underBasic(url)));
    if (!signedIn) return false;
    const { principal, user } = signedIn;
    const now = clock().getTime();
    if (principal.expiresAt !== undefined && principal.expiresAt <= now) return false;
    if (accessRecordDue(user, now) || !permits(user, access)) return false;
    if (config.library) {
      const libraryId = (request.params as Record<string, string | undefined>)[config.library.param];
      if (!libraryId || !libraries.known?.(user, libraryId, config.library.level)) return false;
    }
    request.principal = principal;
    request.currentUser = user;
    return true;
  }

  // Run by the request-start hook (which read the route's pattern and config once); a request outside
  // the guarded paths, or decided at once, goes on without a promise.
  options.requestStart.guard((request, reply, url, config) => {
    if (url === undefined || !underPrefix(url) || passesAtOnce(request, url, config)) return undefined;
    return check(request, reply, url, config);
  });
}

/** The signed-in user of a route that declared access; throws if a route forgot to. */
export function currentUser(request: FastifyRequest): AuthenticatedUser {
  if (!request.currentUser) throw new Unauthorized();
  return request.currentUser;
}

/**
 * Whether `user` passes `access`, as the hook decides for a route (administrators
 * pass every check; `manage.setting.*` is theirs alone). For a route serving
 * several things of different access (the exporter), checked per thing.
 */
export function permits(user: AuthenticatedUser, access: RouteAccess): boolean {
  if (user.admin) return true;
  // "share" routes are decided before this (the share, not the user); as the hook always did, nothing more here.
  if (typeof access !== "object") return access !== "admin";
  return !isAdminOnlyPermission(access.permission) && hasPermission(user.permissions, access.permission, access.action);
}
