import type { AnyKysely } from "./index.js";

/**
 * A story's metadata revision (docs/stories.md, "Editing a story"): 1 for every story there is, one more with
 * each change of its metadata. The story's GET answers it as its ETag and an edit's If-Match names it, so
 * a save based on an older revision is refused instead of overwriting someone else's change.
 */
export function storyRevision() {
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema
        .alterTable("stories")
        .addColumn("revision", "integer", (column) => column.notNull().defaultTo(1))
        .execute();
    },
    async down(db: AnyKysely): Promise<void> {
      await db.schema.alterTable("stories").dropColumn("revision").execute();
    },
  };
}
