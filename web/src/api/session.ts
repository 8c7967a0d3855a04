/**
 * The browser side of the session: where tokens live and how they are cleared.
 * Storage keys use the `pro__` namespace of the product the spec was written
 * from. The identity issue extends this module with the OIDC sign-in, the
 * refresh flow and the server logout call; everything else reads tokens only
 * through these functions.
 */

export const STORAGE_NAMESPACE = "pro__";
export const ACCESS_TOKEN = "Access-Token";
export const REFRESH_TOKEN = "Refresh-Token";
export const EXPIRES_IN = "Expires-In";
export const EXPIRES_AT = "Expires-At";
/** Spec section 9: the access token is kept 7 days locally. */
export const ACCESS_TOKEN_TTL_MS = 604_800_000;

export const TOKEN_KEYS = [ACCESS_TOKEN, REFRESH_TOKEN, EXPIRES_IN, EXPIRES_AT] as const;

type KeyValueStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

function defaultStorage(): KeyValueStorage | undefined {
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

export function getAccessToken(storage = defaultStorage()): string | null {
  return readStored(ACCESS_TOKEN, storage);
}

export function setAccessToken(token: string, storage = defaultStorage()): void {
  writeStored(ACCESS_TOKEN, token, ACCESS_TOKEN_TTL_MS, storage);
}

/** Removes every `pro__` token key; returns whether anything was stored. */
export function clearSession(storage = defaultStorage()): boolean {
  let hadToken = false;
  for (const key of TOKEN_KEYS) {
    if (storage?.getItem(STORAGE_NAMESPACE + key) != null) hadToken = true;
    storage?.removeItem(STORAGE_NAMESPACE + key);
  }
  return hadToken;
}

/**
 * Logs out. For now the session is only local; the identity issue adds the
 * server call (POST /auth/logout), whose failure rejects with the server's
 * message so the caller can show it (spec section 8: titled 错误).
 */
export async function logout(storage = defaultStorage()): Promise<void> {
  clearSession(storage);
}

export interface CurrentUser {
  name: string | null;
  admin: boolean;
}

/**
 * Who is signed in. There is no current-user endpoint yet, so nobody is and
 * nobody is an admin; the identity issue replaces this one function.
 */
export function currentUser(): CurrentUser {
  return { name: null, admin: false };
}
