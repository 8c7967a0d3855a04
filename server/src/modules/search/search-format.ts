import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { SearchIndex } from "./search-index.js";

/**
 * The format the index's entries are written in by this code (migration 0022
 * keeps the one they hold): 1, words and single CJK characters; 2, script
 * changes split words and GAP tokens keep phrases within a run of text; 3, the
 * restricted properties' text behind their tag (migration 0048, docs/property-access.md).
 */
export const SEARCH_FORMAT = 3;

/** The format the index's entries hold. */
export async function storedFormat(kysely: Kysely<Database>): Promise<number> {
  const row = await kysely.selectFrom("search_format").select("version").where("id", "=", 1).executeTakeFirst();
  return row?.version ?? SEARCH_FORMAT;
}

/**
 * Writes every story's entry again, oldest uploads first, `batch` stories per
 * transaction, and records the format. With `clear` the index is emptied
 * first (searches meanwhile see a partial index; SQLite's rowids, the
 * recency order, follow the upload order again); without, each entry is
 * rewritten in place (searches meanwhile see old and new entries side by side).
 */
export async function rewriteIndex(
  kysely: Kysely<Database>,
  index: SearchIndex,
  options: { clear: boolean; batch?: number; onBatch?: (done: number) => void },
): Promise<number> {
  const batch = options.batch ?? 200;
  if (options.clear) await index.clear(kysely);
  let after: { id: string; created_at: string } | undefined;
  let count = 0;
  for (;;) {
    let next = kysely
      .selectFrom("stories")
      .select(["id", "created_at"])
      .orderBy("created_at")
      .orderBy("id")
      .limit(batch);
    if (after !== undefined) {
      const { id, created_at } = after;
      next = next.where((eb) =>
        eb.or([eb("created_at", ">", created_at), eb.and([eb("created_at", "=", created_at), eb("id", ">", id)])]),
      );
    }
    const rows = await next.execute();
    if (rows.length === 0) break;
    const ids = rows.map((row) => row.id);
    count += await kysely.transaction().execute((trx) => index.upsertMany(trx, ids));
    options.onBatch?.(count);
    after = rows[rows.length - 1]!;
  }
  await kysely.updateTable("search_format").set({ version: SEARCH_FORMAT }).where("id", "=", 1).execute();
  return count;
}
