import { type Adapter, type AdapterPayload, errors } from "oidc-provider";
import type { OidcRepository } from "./oidc.repository.js";

export type Clock = () => Date;

/**
 * A session may hold authorizations for several clients; the row is indexed
 * by the grant of `preferredClient` (the SPA) so logout can end it.
 */
function sessionGrantId(payload: AdapterPayload, preferredClient: string): string | null {
  const authorizations = payload.authorizations as Record<string, { grantId?: string }> | undefined;
  if (!authorizations) return null;
  const preferred = authorizations[preferredClient]?.grantId;
  if (preferred) return preferred;
  return Object.values(authorizations).find((authorization) => authorization.grantId)?.grantId ?? null;
}

/**
 * oidc-provider's seven-method adapter on our database, one instance per
 * model name (Session, Interaction, AuthorizationCode, RefreshToken, Grant…).
 */
export class OidcAdapter implements Adapter {
  constructor(
    private readonly type: string,
    private readonly repository: OidcRepository,
    private readonly clock: Clock,
    private readonly preferredClient: string,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    const now = this.clock().getTime();
    const grantId = this.type === "Session" ? sessionGrantId(payload, this.preferredClient) : (payload.grantId ?? null);
    await this.repository.upsert({
      type: this.type,
      id,
      payload,
      grantId,
      userCode: payload.userCode ?? null,
      uid: payload.uid ?? null,
      expiresAt: expiresIn ? new Date(now + expiresIn * 1000).toISOString() : null,
    });
  }

  find(id: string): Promise<AdapterPayload | undefined> {
    return this.#find("id", id);
  }

  findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.#find("uid", uid);
  }

  findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.#find("user_code", userCode);
  }

  /**
   * Atomic: of two redemptions racing for one code or refresh token, one
   * wins. The loser is treated as a replay, as oidc-provider treats a
   * sequential reuse: the grant and everything issued under it is revoked.
   */
  async consume(id: string): Promise<void> {
    if (await this.repository.consume(this.type, id, this.clock().toISOString())) return;
    const grantId = await this.repository.grantIdOf(this.type, id);
    if (grantId) await this.repository.revokeGrant(grantId);
    throw new errors.InvalidGrant(`${this.type} already consumed`);
  }

  destroy(id: string): Promise<void> {
    return this.repository.destroy(this.type, id);
  }

  revokeByGrantId(grantId: string): Promise<void> {
    return this.repository.destroyByGrant(this.type, grantId);
  }

  async #find(column: "id" | "uid" | "user_code", value: string): Promise<AdapterPayload | undefined> {
    const stored = await this.repository.find(this.type, column, value, this.clock().toISOString());
    if (!stored) return undefined;
    if (stored.consumedAt === null) return stored.payload;
    return { ...stored.payload, consumed: Math.floor(Date.parse(stored.consumedAt) / 1000) };
  }
}

export function oidcAdapterFactory(repository: OidcRepository, clock: Clock, preferredClient: string) {
  return (type: string): Adapter => new OidcAdapter(type, repository, clock, preferredClient);
}
