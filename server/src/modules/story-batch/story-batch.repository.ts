import type { Kysely, Selectable } from "kysely";
import type { Db } from "../../db/database.js";
import type {
  Database,
  StoryBatchEditItemsTable,
  StoryBatchEditsTable,
  StoryBatchOutcome,
  StoryBatchState,
} from "../../db/schema.js";

export type BatchRow = Selectable<StoryBatchEditsTable>;
export type BatchItemRow = Selectable<StoryBatchEditItemsTable>;

/** Items are written this many at a time (one statement each; SQLite takes 999 parameters per statement). */
const INSERT_CHUNK = 100;

/** SQL of the batch edits and their per-story reports. */
export class StoryBatchRepository {
  constructor(
    private readonly db: Db,
    private readonly kysely: Kysely<Database> = db.kysely,
  ) {}

  with(executor: Kysely<Database>): StoryBatchRepository {
    return new StoryBatchRepository(this.db, executor);
  }

  /** The batch and its stories (pending), in one transaction. */
  async create(row: Omit<BatchRow, "operations"> & { operations: unknown }, storyIds: readonly string[]) {
    await this.kysely.transaction().execute(async (trx) => {
      await trx
        .insertInto("story_batch_edits")
        .values({ ...row, operations: this.db.adapter.writeJson(row.operations) })
        .execute();
      for (let start = 0; start < storyIds.length; start += INSERT_CHUNK) {
        await trx
          .insertInto("story_batch_edit_items")
          .values(
            storyIds.slice(start, start + INSERT_CHUNK).map((storyId, index) => ({
              batch_id: row.id,
              position: start + index,
              story_id: storyId,
              library_id: null,
              title: null,
              outcome: null,
              reason: null,
              message: null,
              fields: null,
            })),
          )
          .execute();
      }
    });
  }

  async find(id: string): Promise<BatchRow | undefined> {
    const row = await this.kysely.selectFrom("story_batch_edits").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? { ...row, operations: this.db.adapter.readJson(row.operations) } : undefined;
  }

  async setJob(id: string, jobId: string): Promise<void> {
    await this.kysely.updateTable("story_batch_edits").set({ job_id: jobId }).where("id", "=", id).execute();
  }

  async setState(id: string, state: StoryBatchState, at: string | null, error: string | null = null): Promise<void> {
    await this.kysely
      .updateTable("story_batch_edits")
      .set({ state, finished_at: at, error })
      .where("id", "=", id)
      .execute();
  }

  /** The items no run has reached yet, in order. */
  async pending(batchId: string): Promise<BatchItemRow[]> {
    return this.kysely
      .selectFrom("story_batch_edit_items")
      .selectAll()
      .where("batch_id", "=", batchId)
      .where("outcome", "is", null)
      .orderBy("position")
      .execute();
  }

  async setOutcome(
    item: Pick<BatchItemRow, "batch_id" | "position">,
    outcome: {
      outcome: StoryBatchOutcome;
      libraryId?: string | null;
      title?: string | null;
      reason?: string | null;
      message?: string | null;
      fields?: string[];
    },
  ): Promise<void> {
    await this.kysely
      .updateTable("story_batch_edit_items")
      .set({
        outcome: outcome.outcome,
        library_id: outcome.libraryId ?? null,
        title: outcome.title ?? null,
        reason: outcome.reason ?? null,
        message: outcome.message ?? null,
        fields: outcome.fields ? this.db.adapter.writeJson(outcome.fields) : null,
      })
      .where("batch_id", "=", item.batch_id)
      .where("position", "=", item.position)
      .execute();
  }

  /** Items counted by outcome (`pending` for those not reached). */
  async counts(batchId: string): Promise<Record<StoryBatchOutcome | "pending", number>> {
    const rows = await this.kysely
      .selectFrom("story_batch_edit_items")
      .select((eb) => ["outcome", eb.fn.countAll<number>().as("count")])
      .where("batch_id", "=", batchId)
      .groupBy("outcome")
      .execute();
    const counts = { pending: 0, changed: 0, unchanged: 0, refused: 0, failed: 0 };
    for (const row of rows) counts[row.outcome ?? "pending"] = Number(row.count);
    return counts;
  }

  async items(
    batchId: string,
    query: { outcome?: StoryBatchOutcome | "pending"; page: number; size: number },
  ): Promise<{ rows: BatchItemRow[]; total: number }> {
    let base = this.kysely.selectFrom("story_batch_edit_items").where("batch_id", "=", batchId);
    if (query.outcome === "pending") base = base.where("outcome", "is", null);
    else if (query.outcome) base = base.where("outcome", "=", query.outcome);
    const { count } = await base.select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow();
    const rows = await base
      .selectAll()
      .orderBy("position")
      .limit(query.size)
      .offset(query.page * query.size)
      .execute();
    return {
      rows: rows.map((row) => ({ ...row, fields: row.fields === null ? [] : this.db.adapter.readJson(row.fields) })),
      total: Number(count),
    };
  }
}
