import { decodeProtectedHeader, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from "jose";
import { Unauthorized } from "../../http/errors.js";
import type { BearerVerifier, Principal } from "../auth/bearer.js";

export interface OidcVerifierOptions {
  issuer: string;
  /** The `aud` the API requires. */
  audience: string;
  /** The issuer's keys: a local set for the embedded provider, the remote JWKS of an external one. */
  keys: JWTVerifyGetKey;
  algorithms: string[];
  /** Required JOSE `typ` (the embedded provider signs `at+jwt`); external issuers vary. */
  typ?: string;
  clockToleranceSeconds?: number;
  /** Maps a verified token to users.id (the embedded provider's `sub`, or a provisioned user). */
  resolveUser(payload: JWTPayload): Promise<string>;
  /** When set, tokens must carry a `grant_id` that is still live: logout and replays revoke grants. */
  isGrantLive?(grantId: string): Promise<boolean>;
}

const JWS_COMPACT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

function looksLikeJwt(token: string): boolean {
  if (!JWS_COMPACT.test(token)) return false;
  try {
    decodeProtectedHeader(token);
    return true;
  } catch {
    return false;
  }
}

/**
 * Verifies OpenID Connect JWT access tokens: signature against the issuer's
 * keys, `alg` from an allow-list, issuer, audience, expiry (with a small
 * clock tolerance). Tokens that are not JWTs are left to other verifiers.
 */
export function createOidcVerifier(options: OidcVerifierOptions): BearerVerifier {
  const invalid = () => new Unauthorized("the access token is not valid", "token_invalid");
  return {
    async verify(token: string): Promise<Principal | null> {
      if (!looksLikeJwt(token)) return null;
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, options.keys, {
          issuer: options.issuer,
          audience: options.audience,
          algorithms: options.algorithms,
          typ: options.typ,
          clockTolerance: options.clockToleranceSeconds ?? 5,
          requiredClaims: ["sub", "exp", "iat"],
        }));
      } catch (error) {
        if ((error as { code?: string }).code === "ERR_JWT_EXPIRED") {
          throw new Unauthorized("the access token has expired", "token_expired");
        }
        throw invalid();
      }
      const grantId = typeof payload.grant_id === "string" ? payload.grant_id : undefined;
      if (options.isGrantLive) {
        if (!grantId || !(await options.isGrantLive(grantId))) {
          throw new Unauthorized("the sign-in this token belongs to has ended", "token_revoked");
        }
      }
      const scopes = typeof payload.scope === "string" ? payload.scope.split(" ").filter(Boolean) : [];
      const expiresAt = (payload.exp as number) * 1000;
      return { userId: await options.resolveUser(payload), via: "oidc", scopes, grantId, expiresAt };
    },
  };
}
