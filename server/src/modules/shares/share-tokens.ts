import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** A new share token: 32 bytes (256 bits) from the CSPRNG, base64url (43 characters). */
export function newShareToken(): string {
  return randomBytes(32).toString("base64url");
}

/** A share token is stored as this hash only. */
export function hashShareToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Whether two hex digests are equal, in time independent of where they differ. */
export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

/** A shape a visitor's token or session must have before anything is looked up. */
export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Short-lived signed claims for share visitors: the share-scoped session
 * after the password, and the media and download URLs of a share. Each use
 * has its own key, derived from the media URL key every node shares, so a
 * share's URL is never a user's media URL and a session is never a URL.
 * A token is `base64url(JSON)` + `.` + `base64url(HMAC-SHA256)`.
 */
export class ShareSigner {
  readonly #key: Buffer;

  constructor(
    sharedKey: Buffer,
    purpose: "session" | "media",
    private readonly clock: () => number = () => Date.now(),
  ) {
    this.#key = createHmac("sha256", sharedKey).update(`dams share ${purpose} v1`).digest();
  }

  #mac(text: string): Buffer {
    return createHmac("sha256", this.#key).update(text).digest();
  }

  /** Signs `claims` until `expiresAt` (Unix seconds). */
  sign(claims: Record<string, string | number>, expiresAt: number): string {
    const body = Buffer.from(JSON.stringify({ ...claims, e: expiresAt }), "utf8").toString("base64url");
    return `${body}.${this.#mac(body).toString("base64url")}`;
  }

  /** The claims of a token this signer made and that has not expired; null otherwise. */
  verify(token: string): (Record<string, unknown> & { e: number }) | null {
    const [body, signature, ...rest] = token.split(".");
    if (!body || !signature || rest.length > 0 || token.length > 2000) return null;
    const given = Buffer.from(signature, "base64url");
    const expected = this.#mac(body);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const claims = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Record<string, unknown>;
      if (typeof claims.e !== "number" || claims.e <= Math.floor(this.clock() / 1000)) return null;
      return claims as Record<string, unknown> & { e: number };
    } catch {
      return null;
    }
  }
}

/** A digest of the password hash: a session made before the password changed no longer opens the share. */
export function passwordStamp(passwordHash: string | null): string {
  return createHash("sha256")
    .update(passwordHash ?? "")
    .digest("base64url")
    .slice(0, 12);
}
