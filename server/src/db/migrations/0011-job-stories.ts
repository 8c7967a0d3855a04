import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/** The name the stories module gives its media job (frozen here: migrations do not import today's code). */
const PROCESS_STORIES_JOB = "stories.process";

/**
 * A job's story: the media jobs of one story are found by an indexed column
 * instead of a LIKE over the payload's JSON text, so any reader of the story
 * can see its processing (GET /stories/{library}/{id}/processing). Jobs of
 * one story only: a job for several stories (older batches) keeps it null.
 */
export function jobStories(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema.alterTable("jobs").addColumn("story_id", types.uuid).execute();
      await db.schema.createIndex("jobs_story_created_idx").on("jobs").columns(["story_id", "created_at"]).execute();
      const rows: { id: string; payload: unknown }[] = await db
        .selectFrom("jobs")
        .select(["id", "payload"])
        .where("name", "=", PROCESS_STORIES_JOB)
        .execute();
      for (const row of rows) {
        const ids = adapter.readJson<{ ids?: unknown }>(row.payload)?.ids;
        if (!Array.isArray(ids) || ids.length !== 1 || typeof ids[0] !== "string") continue;
        await db.updateTable("jobs").set({ story_id: ids[0] }).where("id", "=", row.id).execute();
      }
    },
    async down(db: AnyKysely): Promise<void> {
      await db.schema.dropIndex("jobs_story_created_idx").execute();
      await db.schema.alterTable("jobs").dropColumn("story_id").execute();
    },
  };
}
