import type { Db } from "../../db/database.js";

export interface StoredPayload {
  payload: Record<string, unknown>;
  grantId: string | null;
  consumedAt: string | null;
}

export interface PayloadWrite {
  type: string;
  id: string;
  payload: Record<string, unknown>;
  grantId: string | null;
  userCode: string | null;
  uid: string | null;
  expiresAt: string | null;
}

/** SQL for the embedded provider's storage (oidc_payloads). */
export class OidcRepository {
  constructor(
    private readonly db: Db,
    /** Told after a grant ended (sign-out, replay, revocation): its access tokens' cached sign-ins are dropped. */
    private readonly grantEnded: (grantId: string) => Promise<void> = async () => {},
  ) {}

  async upsert(row: PayloadWrite): Promise<void> {
    const values = {
      payload: this.db.adapter.writeJson(row.payload),
      grant_id: row.grantId,
      user_code: row.userCode,
      uid: row.uid,
      expires_at: row.expiresAt,
    };
    await this.db.kysely
      .insertInto("oidc_payloads")
      .values({ type: row.type, id: row.id, consumed_at: null, ...values })
      .onConflict((conflict) => conflict.columns(["type", "id"]).doUpdateSet(values))
      .execute();
  }

  /** The row unless it has expired; an expired row is deleted on the way. */
  async find(type: string, column: "id" | "uid" | "user_code", value: string, now: string) {
    const row = await this.db.kysely
      .selectFrom("oidc_payloads")
      .select(["id", "payload", "grant_id", "expires_at", "consumed_at"])
      .where("type", "=", type)
      .where(column, "=", value)
      .executeTakeFirst();
    if (!row) return undefined;
    if (row.expires_at !== null && row.expires_at <= now) {
      await this.db.kysely.deleteFrom("oidc_payloads").where("type", "=", type).where("id", "=", row.id).execute();
      return undefined;
    }
    return {
      payload: this.db.adapter.readJson<Record<string, unknown>>(row.payload),
      grantId: row.grant_id,
      consumedAt: row.consumed_at,
    } satisfies StoredPayload;
  }

  /** Marks the row consumed unless it already is; true for the one caller that wins. */
  async consume(type: string, id: string, now: string): Promise<boolean> {
    const result = await this.db.kysely
      .updateTable("oidc_payloads")
      .set({ consumed_at: now })
      .where("type", "=", type)
      .where("id", "=", id)
      .where("consumed_at", "is", null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async grantIdOf(type: string, id: string): Promise<string | null> {
    const row = await this.db.kysely
      .selectFrom("oidc_payloads")
      .select("grant_id")
      .where("type", "=", type)
      .where("id", "=", id)
      .executeTakeFirst();
    return row?.grant_id ?? null;
  }

  async destroy(type: string, id: string): Promise<void> {
    await this.db.kysely.deleteFrom("oidc_payloads").where("type", "=", type).where("id", "=", id).execute();
    if (type === "Grant") await this.grantEnded(id);
  }

  async destroyByGrant(type: string, grantId: string): Promise<void> {
    await this.db.kysely.deleteFrom("oidc_payloads").where("type", "=", type).where("grant_id", "=", grantId).execute();
    await this.grantEnded(grantId);
  }

  /** Revokes a grant: the grant itself and every token issued under it (sessions are left alone). */
  async revokeGrant(grantId: string): Promise<void> {
    await this.db.kysely
      .deleteFrom("oidc_payloads")
      .where((eb) =>
        eb.or([
          eb.and([eb("type", "=", "Grant"), eb("id", "=", grantId)]),
          eb.and([eb("type", "!=", "Session"), eb("grant_id", "=", grantId)]),
        ]),
      )
      .execute();
    await this.grantEnded(grantId);
  }

  /** Ends the provider sessions (browser sign-in at /uuas) that hold this grant. */
  async destroySessionsOfGrant(grantId: string): Promise<void> {
    await this.db.kysely
      .deleteFrom("oidc_payloads")
      .where("type", "=", "Session")
      .where("grant_id", "=", grantId)
      .execute();
  }

  /** Whether a grant still exists and has not expired (JWT access tokens die with it). */
  async grantIsLive(grantId: string, now: string): Promise<boolean> {
    const row = await this.db.kysely
      .selectFrom("oidc_payloads")
      .select("expires_at")
      .where("type", "=", "Grant")
      .where("id", "=", grantId)
      .executeTakeFirst();
    return row !== undefined && (row.expires_at === null || row.expires_at > now);
  }

  async sweepExpired(now: string): Promise<number> {
    const result = await this.db.kysely
      .deleteFrom("oidc_payloads")
      .where("expires_at", "is not", null)
      .where("expires_at", "<=", now)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Provider sessions (browser sign-ins at /uuas) not yet expired: the `/metrics` figure. */
  async activeSessions(now: string): Promise<number> {
    const row = await this.db.kysely
      .selectFrom("oidc_payloads")
      .select((eb) => eb.fn.countAll<number | string>().as("count"))
      .where("type", "=", "Session")
      .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now)]))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }
}
