import type { AnyKysely } from "./index.js";

/** The storage monitor's growth per day reads the files added since a day (modules/stories, story-statistics.ts). */
export function storyFilesCreated() {
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema.createIndex("story_files_created_idx").on("story_files").column("created_at").execute();
    },
    async down(db: AnyKysely): Promise<void> {
      await db.schema.dropIndex("story_files_created_idx").execute();
    },
  };
}
