import { createHash, randomBytes } from "node:crypto";
import { NotFound, Unauthorized } from "../../http/errors.js";
import type { BearerVerifier, Principal } from "../auth/bearer.js";
import { type SignedInInvalidator, signedInTag } from "../auth/signed-in-cache.js";
import type { ApiTokenRecord, ApiTokensRepository } from "./api-tokens.repository.js";

/** Personal API tokens are `dams_` followed by 32 random bytes, base64url. */
export const API_TOKEN_PREFIX = "dams_";
const SHOWN_PREFIX_LENGTH = API_TOKEN_PREFIX.length + 6;
const DAY_MS = 86_400_000;
const TOUCH_INTERVAL_MS = 60_000;

export function hashToken(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

export interface ApiTokenView {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

function toView(token: ApiTokenRecord): ApiTokenView {
  return {
    id: token.id,
    name: token.name,
    prefix: token.prefix,
    createdAt: token.created_at,
    lastUsedAt: token.last_used_at,
    expiresAt: token.expires_at,
    revokedAt: token.revoked_at,
  };
}

export class ApiTokensService {
  #signedIn: SignedInInvalidator | undefined;

  constructor(
    private readonly tokens: ApiTokensRepository,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** A revoked token's cached sign-ins are dropped on every node (the API auth hook's cache). */
  useSignedIn(signedIn: SignedInInvalidator): void {
    this.#signedIn = signedIn;
  }

  /** Creates a token; the secret is returned here and never again (only its sha256 is stored). */
  async create(
    userId: string,
    input: { name: string; expiresInDays?: number },
  ): Promise<{ token: ApiTokenView; secret: string }> {
    const secret = `${API_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
    const now = this.clock();
    const expiresAt = input.expiresInDays ? new Date(now.getTime() + input.expiresInDays * DAY_MS).toISOString() : null;
    const token = await this.tokens.insert(
      {
        userId,
        name: input.name,
        tokenHash: hashToken(secret),
        prefix: secret.slice(0, SHOWN_PREFIX_LENGTH),
        expiresAt,
      },
      now.toISOString(),
    );
    return { token: toView(token), secret };
  }

  async list(userId: string): Promise<ApiTokenView[]> {
    return (await this.tokens.listByUser(userId)).map(toView);
  }

  /** Revokes one of the user's own tokens; someone else's answers 404 like a missing one. */
  async revoke(userId: string, id: string): Promise<void> {
    if (await this.tokens.revoke(id, userId, this.clock().toISOString())) {
      await this.#signedIn?.invalidate(signedInTag.apiToken(id));
      return;
    }
    const token = await this.tokens.findById(id);
    if (!token || token.user_id !== userId) throw new NotFound(`API token ${id} does not exist`, "token_not_found");
  }

  /** The BearerVerifier for personal API tokens: answers for `dams_` tokens only. */
  readonly verifier: BearerVerifier = {
    verify: async (secret: string): Promise<Principal | null> => {
      if (!secret.startsWith(API_TOKEN_PREFIX)) return null;
      const token = await this.tokens.findByHash(hashToken(secret));
      if (!token) throw new Unauthorized("the API token is not valid", "token_invalid");
      const now = this.clock();
      if (token.revoked_at) throw new Unauthorized("the API token was revoked", "token_revoked");
      if (token.expires_at && Date.parse(token.expires_at) <= now.getTime()) {
        throw new Unauthorized("the API token has expired", "token_expired");
      }
      const lastUsed = token.last_used_at ? Date.parse(token.last_used_at) : Number.NEGATIVE_INFINITY;
      if (now.getTime() - lastUsed >= TOUCH_INTERVAL_MS) {
        await this.tokens.touch(token.id, now.toISOString(), new Date(now.getTime() - TOUCH_INTERVAL_MS).toISOString());
      }
      const expiresAt = token.expires_at ? Date.parse(token.expires_at) : undefined;
      return { userId: token.user_id, via: "api-token", scopes: ["api"], tokenId: token.id, expiresAt };
    },
  };
}
