import type { AnyKysely } from "./index.js";

/**
 * The data monitor and the usage statistics (modules/stories, story-statistics.ts) read the stories made since
 * a day, and the story actions of a kind (create, commit, download, publish) within a period.
 */
export function usageIndexes() {
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema.createIndex("stories_created_at_idx").on("stories").column("created_at").execute();
      await db.schema
        .createIndex("story_actions_action_at_idx")
        .on("story_actions")
        .columns(["action", "at"])
        .execute();
    },
    async down(db: AnyKysely): Promise<void> {
      await db.schema.dropIndex("story_actions_action_at_idx").execute();
      await db.schema.dropIndex("stories_created_at_idx").execute();
    },
  };
}
