/**
 * The seam between whoever issues tokens (the embedded OpenID Connect
 * provider, an external issuer, personal API tokens) and the API's
 * authentication hook. A verifier answers for the tokens it recognises.
 */
export interface Principal {
  /** users.id of the caller. */
  userId: string;
  /** How the caller proved who they are. */
  via: "oidc" | "api-token";
  /** Granted scopes (OIDC) or ["api"] for API tokens. */
  scopes: string[];
  /** The session/grant the token belongs to, when there is one (for logout). */
  grantId?: string;
  /** The personal API token's id (its revocation must reach cached principals). */
  tokenId?: string;
  /** When the token stops being valid (ms since the epoch), if it does: a cached principal is not used after. */
  expiresAt?: number;
}

export interface BearerVerifier {
  /**
   * Returns the principal for a token this verifier issued; `null` when the
   * token is not of its kind (the next verifier is asked). Throws
   * `Unauthorized` for a token of its kind that is invalid or expired.
   */
  verify(token: string): Promise<Principal | null>;
}
