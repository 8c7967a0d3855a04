import { randomUUID } from "node:crypto";
import type { Db } from "../../../db/database.js";
import { equalsAnyCase, likeAnyCase } from "../shared/catalogue-sql.js";

export interface HistoryRow {
  id: string;
  keyword: string;
  used_at: string;
}

/** What keywords need beyond the generic entry repository: use counts and each user's history. */
export class KeywordRepository {
  constructor(private readonly db: Db) {}

  /** Adds one use to each keyword (matched regardless of case), creating those that do not exist yet. */
  async countUse(names: string[], now: string): Promise<void> {
    await this.db.kysely.transaction().execute(async (trx) => {
      const countOne = async (name: string) => {
        const result = await trx
          .updateTable("keywords")
          .set((eb) => ({ use_count: eb("use_count", "+", 1), updated_at: now }))
          .where(equalsAnyCase("name", name))
          .executeTakeFirst();
        return Number(result.numUpdatedRows) > 0;
      };
      for (const name of names) {
        if (await countOne(name)) continue;
        // Another writer may create the keyword between the two statements: then count on theirs.
        const inserted = await trx
          .insertInto("keywords")
          .values({ id: randomUUID(), name, use_count: 1, created_at: now, updated_at: now })
          .onConflict((conflict) => conflict.doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) await countOne(name);
      }
    });
  }

  async history(
    userId: string,
    query: { page: number; size: number; keyword?: string },
  ): Promise<{ rows: HistoryRow[]; total: number }> {
    let base = this.db.kysely.selectFrom("keyword_history").where("user_id", "=", userId);
    const keyword = query.keyword?.trim();
    if (keyword) base = base.where(likeAnyCase("keyword", keyword));
    const { count } = await base.select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow();
    const rows = await base
      .select(["id", "keyword", "used_at"])
      .orderBy("used_at", "desc")
      .orderBy("id")
      .limit(query.size)
      .offset(query.page * query.size)
      .execute();
    return { rows, total: Number(count) };
  }

  /**
   * Moves each keyword to the top of the user's history, then keeps only the
   * `limit` most recent. The batch gets times after every entry the user
   * already has (even with a clock that stepped back, or two calls in one
   * millisecond), the first keyword the latest.
   */
  async recordHistory(userId: string, keywords: string[], now: Date, limit: number): Promise<void> {
    await this.db.kysely.transaction().execute(async (trx) => {
      const { latest } = await trx
        .selectFrom("keyword_history")
        .select((eb) => eb.fn.max("used_at").as("latest"))
        .where("user_id", "=", userId)
        .executeTakeFirstOrThrow();
      const after = latest ? Date.parse(latest) + 1 : Number.NEGATIVE_INFINITY;
      const base = Math.max(now.getTime(), after);
      for (const [index, keyword] of keywords.entries()) {
        const usedAt = new Date(base + keywords.length - 1 - index).toISOString();
        const result = await trx
          .updateTable("keyword_history")
          .set({ keyword, used_at: usedAt })
          .where("user_id", "=", userId)
          .where(equalsAnyCase("keyword", keyword))
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) {
          // A concurrent call of the same user may have inserted it; its time is as good.
          await trx
            .insertInto("keyword_history")
            .values({ id: randomUUID(), user_id: userId, keyword, used_at: usedAt })
            .onConflict((conflict) => conflict.doNothing())
            .execute();
        }
      }
      const kept = trx
        .selectFrom("keyword_history")
        .select("id")
        .where("user_id", "=", userId)
        .orderBy("used_at", "desc")
        .orderBy("id")
        .limit(limit);
      await trx.deleteFrom("keyword_history").where("user_id", "=", userId).where("id", "not in", kept).execute();
    });
  }

  async deleteHistory(userId: string, id?: string): Promise<number> {
    let query = this.db.kysely.deleteFrom("keyword_history").where("user_id", "=", userId);
    if (id) query = query.where("id", "=", id);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
