import { createHmac, timingSafeEqual } from "node:crypto";
import { API_PREFIX } from "../../http/error-handler.js";

/** What a signed media URL grants: one file of one version of one story, until `expiresAt`. */
export interface MediaClaims {
  libraryId: string;
  storyId: string;
  versionNo: number;
  /** `original`, a rendition role (thumbnail, preview, proxy…) or `cover`. */
  rendition: string;
}

export interface VerifiedMedia extends MediaClaims {
  /** Unix seconds. */
  expiresAt: number;
}

export type MediaTokenProblem = "malformed" | "bad_signature" | "expired";

/** Signatures remembered for the current expiry window (list pages sign the same files again and again). */
const MAX_REMEMBERED = 20_000;

/** The path of the public media route; the token is its last segment. */
export const MEDIA_PATH = "/media";

interface Payload {
  l: string;
  s: string;
  v: number;
  r: string;
  e: number;
}

/**
 * Short-lived capability URLs for `<img>`, `<video>` and `<audio>`, which
 * cannot send a bearer token. A token is `base64url(JSON claims)` + `.` +
 * `base64url(HMAC-SHA256(key, that text))`. Expiries are rounded up to a
 * window (a quarter of the lifetime, at least a minute), so the same file
 * asked for twice within the window gets the same URL and the browser's cache
 * keeps working: a URL lives between `ttlSeconds` and 1.25 × `ttlSeconds`.
 */
export class MediaUrlSigner {
  readonly #key: Buffer;
  readonly #windowSeconds: number;
  /** claims → token, for tokens expiring at #rememberedExpiry; a new window starts a new map. */
  #remembered = new Map<string, string>();
  #rememberedExpiry = 0;

  constructor(
    key: Buffer,
    readonly ttlSeconds: number,
    private readonly clock: () => number = () => Date.now(),
  ) {
    if (key.length < 32) throw new Error("the media URL key must be at least 32 bytes");
    this.#key = key;
    this.#windowSeconds = Math.max(60, Math.floor(ttlSeconds / 4));
  }

  #mac(text: string): Buffer {
    return createHmac("sha256", this.#key).update(text).digest();
  }

  #now(): number {
    return Math.floor(this.clock() / 1000);
  }

  /** The token alone, and when it expires (Unix seconds). */
  token(claims: MediaClaims): { token: string; expiresAt: number } {
    const window = this.#windowSeconds;
    const expiresAt = Math.ceil((this.#now() + this.ttlSeconds) / window) * window;
    if (expiresAt !== this.#rememberedExpiry || this.#remembered.size >= MAX_REMEMBERED) {
      this.#remembered = new Map();
      this.#rememberedExpiry = expiresAt;
    }
    const key = `${claims.libraryId}\n${claims.storyId}\n${claims.versionNo}\n${claims.rendition}`;
    let token = this.#remembered.get(key);
    if (!token) {
      const payload: Payload = {
        l: claims.libraryId,
        s: claims.storyId,
        v: claims.versionNo,
        r: claims.rendition,
        e: expiresAt,
      };
      const body = Buffer.from(JSON.stringify(payload), "utf8").toString("base64url");
      token = `${body}.${this.#mac(body).toString("base64url")}`;
      this.#remembered.set(key, token);
    }
    return { token, expiresAt };
  }

  /** The URL under the API prefix, e.g. `/dams/api/v1/media/eyJ….abc`, and when it expires. */
  signed(claims: MediaClaims): { url: string; expiresAt: number } {
    const { token, expiresAt } = this.token(claims);
    return { url: `${API_PREFIX}${MEDIA_PATH}/${token}`, expiresAt };
  }

  url(claims: MediaClaims): string {
    return this.signed(claims).url;
  }

  /** The claims of a token the key signed and that has not expired, else why not. */
  verify(token: string): VerifiedMedia | MediaTokenProblem {
    const [body, signature, ...rest] = token.split(".");
    if (!body || !signature || rest.length > 0) return "malformed";
    const given = Buffer.from(signature, "base64url");
    const expected = this.#mac(body);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return "bad_signature";
    let payload: Partial<Payload>;
    try {
      payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Partial<Payload>;
    } catch {
      return "malformed";
    }
    const { l, s, v, r, e } = payload;
    if (
      typeof l !== "string" ||
      typeof s !== "string" ||
      typeof r !== "string" ||
      !Number.isInteger(v) ||
      !Number.isInteger(e)
    ) {
      return "malformed";
    }
    if (e! <= this.#now()) return "expired";
    return { libraryId: l, storyId: s, versionNo: v!, rendition: r, expiresAt: e! };
  }
}
