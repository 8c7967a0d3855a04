/**
 * The browser side of the session: where tokens live, what counts as a
 * session, and the routes that need none. Storage keys use the `pro__`
 * namespace of the product the spec was written from (spec section 3,
 * "Client-side storage": Access-Token, refresh_token, expires_in, expiry
 * time). Everything else reads tokens only through these functions.
 *
 * The sign-in itself (authorize redirect, code exchange) is in `sign-in.ts`,
 * the refresh queue in `token-refresh.ts`.
 */

export const STORAGE_NAMESPACE = "pro__";
export const ACCESS_TOKEN = "Access-Token";
export const REFRESH_TOKEN = "refresh_token";
export const EXPIRES_IN = "expires_in";
/** The absolute expiry of the access token, epoch ms (now + expires_in s). */
export const EXPIRES_AT = "expiry_time";
/** Spec section 9: the access token is kept 7 days locally. */
export const ACCESS_TOKEN_TTL_MS = 604_800_000;
/** An access token this close to its expiry is refreshed before use. */
export const EXPIRY_SKEW_MS = 5_000;

export const TOKEN_KEYS = [ACCESS_TOKEN, REFRESH_TOKEN, EXPIRES_IN, EXPIRES_AT] as const;
/** A refresh grant on the wire: see `RefreshSent`. */
export const REFRESH_SENT = "refresh_sent";

export type KeyValueStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

export function defaultStorage(): KeyValueStorage | undefined {
  return typeof localStorage === "undefined" ? undefined : localStorage;
}

/** Values are stored as `{ value, expire }` (expire: epoch ms or null), as vue-ls did. */
export function readStored(key: string, storage = defaultStorage(), now = Date.now()): string | null {
  const raw = storage?.getItem(STORAGE_NAMESPACE + key);
  if (raw == null) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === "object" && "value" in parsed) {
      const { value, expire } = parsed as { value: unknown; expire?: unknown };
      if (typeof expire === "number" && expire < now) return null;
      return value == null ? null : String(value);
    }
    return typeof parsed === "string" ? parsed : raw;
  } catch {
    return raw;
  }
}

export function writeStored(
  key: string,
  value: string,
  ttlMs: number | null = null,
  storage = defaultStorage(),
  now = Date.now(),
): void {
  storage?.setItem(STORAGE_NAMESPACE + key, JSON.stringify({ value, expire: ttlMs == null ? null : now + ttlMs }));
}

export function getAccessToken(storage = defaultStorage(), now = Date.now()): string | null {
  return readStored(ACCESS_TOKEN, storage, now);
}

export function setAccessToken(token: string, storage = defaultStorage(), now = Date.now()): void {
  writeStored(ACCESS_TOKEN, token, ACCESS_TOKEN_TTL_MS, storage, now);
}

export function getRefreshToken(storage = defaultStorage()): string | null {
  return readStored(REFRESH_TOKEN, storage);
}

/** What the token endpoint (or a URL hash) hands over. */
export interface TokenSet {
  access_token: string;
  refresh_token?: string | undefined;
  /** Seconds the access token lives. */
  expires_in?: number | undefined;
}

/**
 * Spec sections 4 and 9: the access token is kept 7 days, the refresh token
 * and expires_in are stored, and the absolute expiry is now + expires_in s.
 * A token set without a refresh token keeps the stored one (a hash token);
 * without expires_in the expiry is unknown and the token is used until the
 * API refuses it.
 */
export function storeTokens(tokens: TokenSet, storage = defaultStorage(), now = Date.now()): void {
  setAccessToken(tokens.access_token, storage, now);
  if (tokens.refresh_token) {
    writeStored(REFRESH_TOKEN, tokens.refresh_token, null, storage, now);
    // A marker naming the refresh token just replaced is stale.
    const sent = readRefreshSent(storage);
    if (sent && sent.refreshToken !== tokens.refresh_token) clearRefreshSent(storage);
  }
  if (tokens.expires_in != null && Number.isFinite(tokens.expires_in)) {
    writeStored(EXPIRES_IN, String(tokens.expires_in), null, storage, now);
    writeStored(EXPIRES_AT, String(expiryTime(tokens.expires_in, now)), null, storage, now);
  } else {
    storage?.removeItem(STORAGE_NAMESPACE + EXPIRES_IN);
    storage?.removeItem(STORAGE_NAMESPACE + EXPIRES_AT);
  }
}

/** The absolute expiry, epoch ms, of a token that lives `expiresIn` seconds from `now`. */
export function expiryTime(expiresIn: number, now = Date.now()): number {
  return now + expiresIn * 1000;
}

export type TokenStatus =
  /** A usable access token. */
  | { kind: "valid"; accessToken: string }
  /** No usable access token, but a refresh token to get one. */
  | { kind: "refresh"; refreshToken: string }
  /** An access token whose expiry passed, and nothing to renew it (spec: "a stale expiry"). */
  | { kind: "stale" }
  /** No tokens at all: a guest. */
  | { kind: "none" };

export function tokenStatus(storage = defaultStorage(), now = Date.now()): TokenStatus {
  const accessToken = getAccessToken(storage, now);
  const expiresAt = Number(readStored(EXPIRES_AT, storage, now));
  const fresh = accessToken != null && (!expiresAt || expiresAt - EXPIRY_SKEW_MS > now);
  if (accessToken && fresh) return { kind: "valid", accessToken };
  const refreshToken = getRefreshToken(storage);
  if (refreshToken) return { kind: "refresh", refreshToken };
  return accessToken || storage?.getItem(STORAGE_NAMESPACE + EXPIRES_AT) != null ? { kind: "stale" } : { kind: "none" };
}

/**
 * Spec section 4, step 1: without a refresh token (and without a usable access
 * token, such as one passed in the URL hash) there is no session.
 */
export function hasSession(storage = defaultStorage(), now = Date.now()): boolean {
  const status = tokenStatus(storage, now);
  return status.kind === "valid" || status.kind === "refresh";
}

/** Removes every `pro__` token key (and a refresh marker); returns whether a token was stored. */
export function clearSession(storage = defaultStorage()): boolean {
  let hadToken = false;
  for (const key of TOKEN_KEYS) {
    if (storage?.getItem(STORAGE_NAMESPACE + key) != null) hadToken = true;
    storage?.removeItem(STORAGE_NAMESPACE + key);
  }
  clearRefreshSent(storage);
  return hadToken;
}

/**
 * "The refresh grant redeeming `refreshToken` was sent by page `page` and has
 * no answer yet" (`pro__refresh_sent`, shared by the browser's tabs). A page
 * that leaves while its refresh is on the wire leaves it behind: the provider
 * has probably rotated that token already, and redeeming it again would be
 * taken for theft (token-refresh.ts).
 */
export interface RefreshSent {
  refreshToken: string;
  /** The page instance that sent the grant (random, one per page load). */
  page: string;
}

export function readRefreshSent(storage = defaultStorage()): RefreshSent | null {
  const value = readStored(REFRESH_SENT, storage);
  if (value == null) return null;
  try {
    const sent = JSON.parse(value) as Partial<RefreshSent>;
    if (typeof sent.refreshToken === "string" && typeof sent.page === "string") {
      return { refreshToken: sent.refreshToken, page: sent.page };
    }
  } catch {
    // Not ours: treated as absent.
  }
  return null;
}

export function markRefreshSent(sent: RefreshSent, storage = defaultStorage()): void {
  writeStored(REFRESH_SENT, JSON.stringify({ refreshToken: sent.refreshToken, page: sent.page }), null, storage);
}

export function clearRefreshSent(storage = defaultStorage()): void {
  storage?.removeItem(STORAGE_NAMESPACE + REFRESH_SENT);
}

/**
 * Spec section 4, step 3: `#access_token=…&refresh_token=…&expires_in=…` in
 * the URL (the OAuth implicit-style hand-over some portals use). Returns null
 * when the hash carries no access token.
 */
export function parseHashToken(hash: string): TokenSet | null {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const accessToken = params.get("access_token")?.trim();
  if (!accessToken) return null;
  const expiresIn = Number(params.get("expires_in"));
  return {
    access_token: accessToken,
    refresh_token: params.get("refresh_token") || undefined,
    expires_in: params.get("expires_in") && Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : undefined,
  };
}

/** Stores a token passed in the page's hash and removes it from the address bar. */
export function acceptHashToken(location: Location = window.location, history: History = window.history): boolean {
  const tokens = parseHashToken(location.hash);
  if (!tokens) return false;
  storeTokens(tokens);
  history.replaceState(history.state, "", location.pathname + location.search);
  return true;
}

/**
 * Spec section 2, "Routes exempt from login", by route name, with the paths
 * those names have here. `download` names no route of this shell yet; its
 * path is reserved. The error pages are exempt too: a failed sign-in goes to
 * /403 without a session (spec section 8), which must not start another one.
 */
export const EXEMPT_ROUTES: Record<string, string> = {
  login: "/user/login",
  register: "/user/register",
  registerResult: "/user/register-result",
  ismpsource: "/source/ismpsource",
  editimg: "/source/editimg",
  ismpupload: "/source/ismpupload",
  ismpnetdisk: "/source/ismpnetdisk",
  download: "/download",
  editphoto: "/source/editphoto",
  storyPreview: "/share/storyPreview",
  redirect: "/redirect",
  ismpVideosEdit: "/source/ismpVideosEdit",
};
const ERROR_PAGES = ["/403", "/404", "/500"];

export function isExemptPath(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return [...Object.values(EXEMPT_ROUTES), ...ERROR_PAGES].some(
    (exempt) => path === exempt || path.startsWith(`${exempt}/`),
  );
}
