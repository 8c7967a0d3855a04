/**
 * Spec section 4 "Session", steps 1 and 2: the redirect to the sign-in
 * server's authorize address and the code exchange on the way back, plus the
 * token endpoint's refresh grant used by `token-refresh.ts`.
 *
 * Where and how to sign in comes from `GET /dams/api/v1/auth/config` (the
 * embedded provider under /uuas, or an external issuer): client `newsroom`,
 * scope `openid sso offline_access`, `prompt=consent` (OpenID Connect issues a
 * refresh token for offline_access only then), the redirect URI and the API's
 * resource indicator. The client is public: PKCE S256 and no secret.
 */

import { createPkce, randomToken } from "./pkce";
import type { components } from "./schema";
import { type KeyValueStorage, STORAGE_NAMESPACE, type TokenSet } from "./session";

/**
 * A token request that has not answered by then is a network failure: the
 * refresh holds a lock the browser's other tabs wait for, so it must end.
 */
export const TOKEN_REQUEST_TIMEOUT_MS = 30_000;

/** GET /auth/config (the generated schema: a change on the server fails type-checking here). */
export type AuthConfig = components["schemas"]["AuthConfig"];

/** A token endpoint's refusal or an unusable answer. */
export class TokenEndpointError extends Error {
  constructor(
    readonly status: number | null,
    readonly error: string,
    description?: string,
  ) {
    super(description ? `${error}: ${description}` : error);
    this.name = "TokenEndpointError";
  }
}

const pageOrigin = () => (typeof window === "undefined" ? "http://localhost" : window.location.origin);

let configPromise: Promise<AuthConfig> | undefined;

/** The sign-in configuration; fetched once per page load (public, no token). */
export function loadAuthConfig(fetchImpl: typeof fetch = fetch): Promise<AuthConfig> {
  configPromise ??= (async () => {
    const response = await fetchImpl("/dams/api/v1/auth/config", { headers: { accept: "application/json" } });
    if (!response.ok) throw new TokenEndpointError(response.status, "auth_config_unavailable");
    const body = (await response.json()) as { data: AuthConfig };
    return body.data;
  })().catch((error: unknown) => {
    configPromise = undefined;
    throw error;
  });
  return configPromise;
}

/** What the browser keeps (sessionStorage) between the authorize redirect and the callback. */
export interface PendingSignIn {
  state: string;
  verifier: string;
  /** The path the user was on, restored after sign-in. */
  returnTo: string;
  createdAt: number;
}

const PENDING_PREFIX = `${STORAGE_NAMESPACE}oidc_pending:`;
/** A pending sign-in older than the provider's interaction lifetime is useless. */
const PENDING_MAX_AGE_MS = 60 * 60 * 1000;

function sessionStore(): KeyValueStorage | undefined {
  return typeof sessionStorage === "undefined" ? undefined : sessionStorage;
}

export function savePending(pending: PendingSignIn, storage = sessionStore()): void {
  storage?.setItem(PENDING_PREFIX + pending.state, JSON.stringify(pending));
}

/** Reads and removes the pending sign-in of `state` (a state is good for one callback). */
export function takePending(state: string, storage = sessionStore(), now = Date.now()): PendingSignIn | null {
  const key = PENDING_PREFIX + state;
  const raw = storage?.getItem(key);
  storage?.removeItem(key);
  if (!raw) return null;
  try {
    const pending = JSON.parse(raw) as PendingSignIn;
    if (pending.state !== state || now - pending.createdAt > PENDING_MAX_AGE_MS) return null;
    return pending;
  } catch {
    return null;
  }
}

/** The sign-in pages (`/user/login`, register…): an address (path, query) on them. */
export function isSignInPage(address: string): boolean {
  return /^\/user(\/|$|\?)/.test(address);
}

/** Only same-origin paths are remembered as return addresses; the sign-in pages themselves are not. */
export function safeReturnTo(target: string | null | undefined, fallback = "/frontend/search"): string {
  if (!target?.startsWith("/") || target.startsWith("//") || target.startsWith("/\\")) return fallback;
  if (isSignInPage(target)) return fallback;
  return target;
}

/** The authorize address (spec section 4, step 1). */
export function authorizeUrl(
  config: AuthConfig,
  params: { state: string; challenge: string; nonce?: string },
  origin = pageOrigin(),
): string {
  const url = new URL(config.authorizationEndpoint, origin);
  url.searchParams.set("client_id", config.clientId);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("scope", config.scope);
  url.searchParams.set("redirect_uri", config.redirectUri);
  url.searchParams.set("code_challenge", params.challenge);
  url.searchParams.set("code_challenge_method", "S256");
  url.searchParams.set("state", params.state);
  if (params.nonce) url.searchParams.set("nonce", params.nonce);
  if (config.prompt) url.searchParams.set("prompt", config.prompt);
  if (config.resource) url.searchParams.set("resource", config.resource);
  return url.href;
}

/** Prepares a sign-in: PKCE pair and state saved, the authorize address returned. */
export async function prepareSignIn(
  config: AuthConfig,
  returnTo: string,
  storage = sessionStore(),
  now = Date.now(),
): Promise<string> {
  const pkce = await createPkce();
  const state = randomToken(16);
  savePending({ state, verifier: pkce.verifier, returnTo: safeReturnTo(returnTo), createdAt: now }, storage);
  return authorizeUrl(config, { state, challenge: pkce.challenge, nonce: randomToken(16) });
}

let redirecting = false;

/** Spec section 4, step 1: off to the authorize address, remembering where we were. */
export async function startSignIn(returnTo: string): Promise<void> {
  if (redirecting) return;
  redirecting = true;
  try {
    const url = await prepareSignIn(await loadAuthConfig(), returnTo);
    window.location.assign(url);
  } catch (error) {
    redirecting = false;
    throw error;
  }
}

/** A token request that got no answer (status null: a network failure, not a refusal). */
function noAnswer(cause: unknown): TokenEndpointError {
  return new TokenEndpointError(null, "network_error", cause instanceof Error ? cause.message : String(cause));
}

/** A token endpoint's JSON answer; anything else (an HTML error page) as an empty one. */
function parseAnswer(body: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(body);
    return parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

async function tokenRequest(
  config: AuthConfig,
  body: Record<string, string | undefined>,
  fetchImpl: typeof fetch,
): Promise<TokenSet> {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(body)) if (value) form.set(key, value);
  let response: Response;
  try {
    response = await fetchImpl(new URL(config.tokenEndpoint, pageOrigin()).href, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: form,
      signal: AbortSignal.timeout(TOKEN_REQUEST_TIMEOUT_MS),
    });
  } catch (cause) {
    throw noAnswer(cause);
  }
  // A body cut off (the page leaving as it arrives) is no answer either: the provider may have rotated
  // the refresh token, and its successor is lost with the body.
  const answer = parseAnswer(
    await response.text().catch((cause: unknown) => {
      throw noAnswer(cause);
    }),
  );
  if (!response.ok || typeof answer.access_token !== "string") {
    throw new TokenEndpointError(
      response.status,
      typeof answer.error === "string" ? answer.error : "invalid_response",
      typeof answer.error_description === "string" ? answer.error_description : undefined,
    );
  }
  return {
    access_token: answer.access_token,
    refresh_token: typeof answer.refresh_token === "string" ? answer.refresh_token : undefined,
    expires_in: typeof answer.expires_in === "number" ? answer.expires_in : undefined,
  };
}

/**
 * Spec section 4, step 2: the code exchange with redirect_uri and the PKCE
 * verifier. The spec sends it as query parameters; OAuth 2 wants a form body,
 * which is what the token endpoint reads.
 */
export function exchangeCode(
  config: AuthConfig,
  code: string,
  verifier: string,
  fetchImpl: typeof fetch = fetch,
): Promise<TokenSet> {
  return tokenRequest(
    config,
    {
      grant_type: "authorization_code",
      code,
      redirect_uri: config.redirectUri,
      code_verifier: verifier,
      client_id: config.clientId,
      resource: config.resource,
    },
    fetchImpl,
  );
}

/**
 * The refresh grant. Spec section 7 sends it with a Basic client credential
 * header; `newsroom` is a public client (a browser cannot keep a secret), so
 * the client is identified by `client_id` in the body and no Authorization
 * header is sent. The refresh token rotates: the answer carries a new one.
 */
export function refreshTokens(
  config: AuthConfig,
  refreshToken: string,
  fetchImpl: typeof fetch = fetch,
): Promise<TokenSet> {
  return tokenRequest(
    config,
    { grant_type: "refresh_token", refresh_token: refreshToken, client_id: config.clientId, resource: config.resource },
    fetchImpl,
  );
}

const completions = new Map<string, Promise<string>>();

/**
 * Spec section 4, step 2, on `/user/login?code=…&state=…`: checks the state
 * against the pending sign-in, exchanges the code and stores the tokens.
 * Resolves to the remembered return address; rejects on any failure (the
 * caller goes to /403). One exchange per state, however often it is called.
 */
export function completeSignIn(
  params: URLSearchParams,
  deps: {
    config?: () => Promise<AuthConfig>;
    storeTokens: (tokens: TokenSet) => void;
    fetchImpl?: typeof fetch;
    /** Where the pending sign-in waits (sessionStorage). */
    pending?: KeyValueStorage;
  },
): Promise<string> {
  const state = params.get("state") ?? "";
  const existing = completions.get(state);
  if (existing) return existing;
  const completion = (async () => {
    const error = params.get("error");
    if (error) throw new TokenEndpointError(null, error, params.get("error_description") ?? undefined);
    const code = params.get("code");
    const pending = state ? takePending(state, deps.pending ?? sessionStore()) : null;
    if (!code || !pending) throw new TokenEndpointError(null, "invalid_state");
    const config = await (deps.config ?? loadAuthConfig)();
    deps.storeTokens(await exchangeCode(config, code, pending.verifier, deps.fetchImpl));
    return pending.returnTo;
  })();
  completions.set(state, completion);
  return completion;
}
