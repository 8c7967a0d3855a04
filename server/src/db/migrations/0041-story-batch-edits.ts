import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/**
 * Batch edits of story metadata (issue 15, docs/stories.md "Editing many
 * stories"): one row per batch — who asked, the operations (JSON), its
 * state and the job that runs it — and one row per story of the selection,
 * in the order chosen, with its outcome once the job reached it (null:
 * pending; changed, unchanged, refused, failed) and the reason of a refusal.
 * An item's outcome is written in the story's own edit transaction, so a job
 * that runs again after a crash takes up the pending items only. No foreign
 * key to `stories`: the report keeps a story deleted since.
 */
export function storyBatchEdits(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema
        .createTable("story_batch_edits")
        .addColumn("id", types.uuid, (column) => column.primaryKey())
        .addColumn("user_id", types.uuid, (column) => column.notNull())
        .addColumn("ip", "text")
        .addColumn("operations", types.json, (column) => column.notNull())
        .addColumn("state", "text", (column) => column.notNull())
        .addColumn("total", "integer", (column) => column.notNull())
        .addColumn("error", "text")
        .addColumn("job_id", types.uuid)
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addColumn("finished_at", types.timestamp)
        .execute();
      await db.schema
        .createIndex("story_batch_edits_user_idx")
        .on("story_batch_edits")
        .columns(["user_id", "created_at"])
        .execute();
      await db.schema
        .createTable("story_batch_edit_items")
        .addColumn("batch_id", types.uuid, (column) =>
          column.notNull().references("story_batch_edits.id").onDelete("cascade"),
        )
        .addColumn("position", "integer", (column) => column.notNull())
        .addColumn("story_id", types.uuid, (column) => column.notNull())
        .addColumn("library_id", "text")
        .addColumn("title", "text")
        .addColumn("outcome", "text")
        .addColumn("reason", "text")
        .addColumn("message", "text")
        .addColumn("fields", types.json)
        .addPrimaryKeyConstraint("story_batch_edit_items_pk", ["batch_id", "position"])
        .execute();
    },
    async down(db: AnyKysely): Promise<void> {
      await db.schema.dropTable("story_batch_edit_items").execute();
      await db.schema.dropTable("story_batch_edits").execute();
    },
  };
}
