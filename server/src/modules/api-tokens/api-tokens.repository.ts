import { randomUUID } from "node:crypto";
import type { Db } from "../../db/database.js";
import type { ApiTokensTable } from "../../db/schema.js";

export type ApiTokenRecord = ApiTokensTable;

export interface NewApiToken {
  userId: string;
  name: string;
  tokenHash: string;
  prefix: string;
  expiresAt: string | null;
}

export class ApiTokensRepository {
  constructor(private readonly db: Db) {}

  async insert(token: NewApiToken, now: string): Promise<ApiTokenRecord> {
    const id = randomUUID();
    await this.db.kysely
      .insertInto("api_tokens")
      .values({
        id,
        user_id: token.userId,
        name: token.name,
        token_hash: token.tokenHash,
        prefix: token.prefix,
        created_at: now,
        last_used_at: null,
        expires_at: token.expiresAt,
        revoked_at: null,
      })
      .execute();
    return (await this.findById(id))!;
  }

  async findById(id: string): Promise<ApiTokenRecord | undefined> {
    return this.db.kysely.selectFrom("api_tokens").selectAll().where("id", "=", id).executeTakeFirst();
  }

  async findByHash(tokenHash: string): Promise<ApiTokenRecord | undefined> {
    return this.db.kysely.selectFrom("api_tokens").selectAll().where("token_hash", "=", tokenHash).executeTakeFirst();
  }

  async listByUser(userId: string): Promise<ApiTokenRecord[]> {
    return this.db.kysely
      .selectFrom("api_tokens")
      .selectAll()
      .where("user_id", "=", userId)
      .orderBy("created_at", "desc")
      .orderBy("id")
      .execute();
  }

  async revoke(id: string, userId: string, now: string): Promise<boolean> {
    const result = await this.db.kysely
      .updateTable("api_tokens")
      .set({ revoked_at: now })
      .where("id", "=", id)
      .where("user_id", "=", userId)
      .where("revoked_at", "is", null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Marks a use unless one was recorded after `staleBefore` (at most one write per interval). */
  async touch(id: string, now: string, staleBefore: string): Promise<void> {
    await this.db.kysely
      .updateTable("api_tokens")
      .set({ last_used_at: now })
      .where("id", "=", id)
      .where((eb) => eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<", staleBefore)]))
      .execute();
  }
}
