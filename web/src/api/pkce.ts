/**
 * PKCE (RFC 7636, S256 only: the provider refuses `plain`) and the random
 * `state` of an authorization request. Pure apart from the injected crypto.
 */

type Crypto = Pick<globalThis.Crypto, "getRandomValues" | "subtle">;

export function base64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** `bytes` random bytes as base64url: 32 bytes give the 43 characters RFC 7636 asks of a verifier. */
export function randomToken(bytes = 32, crypto: Crypto = globalThis.crypto): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** BASE64URL(SHA-256(ASCII(verifier))). */
export async function codeChallenge(verifier: string, crypto: Crypto = globalThis.crypto): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return base64Url(new Uint8Array(digest));
}

export interface PkcePair {
  verifier: string;
  challenge: string;
  method: "S256";
}

export async function createPkce(crypto: Crypto = globalThis.crypto): Promise<PkcePair> {
  const verifier = randomToken(32, crypto);
  return { verifier, challenge: await codeChallenge(verifier, crypto), method: "S256" };
}
