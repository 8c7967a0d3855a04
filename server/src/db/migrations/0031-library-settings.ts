import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/**
 * What an administrator sets on a library (/manage/setting/library): the
 * folder new stories go to unless one is chosen, the story types it accepts
 * (null: every type), the metadata template and storage target it uses
 * (null: none, the default storage), when it was archived (no new stories)
 * and when it was last changed.
 */
export function librarySettings(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  return {
    async up(db: AnyKysely): Promise<void> {
      // No foreign key (SQLite cannot drop such a column): a deleted folder is no default (LibrariesService).
      await db.schema.alterTable("libraries").addColumn("default_folder_id", types.uuid).execute();
      await db.schema.alterTable("libraries").addColumn("story_types", types.json).execute();
      await db.schema.alterTable("libraries").addColumn("template_id", "text").execute();
      await db.schema.alterTable("libraries").addColumn("bucket_id", "text").execute();
      await db.schema.alterTable("libraries").addColumn("archived_at", types.timestamp).execute();
      await db.schema.alterTable("libraries").addColumn("updated_at", types.timestamp).execute();
    },
    async down(db: AnyKysely): Promise<void> {
      for (const column of [
        "updated_at",
        "archived_at",
        "bucket_id",
        "template_id",
        "story_types",
        "default_folder_id",
      ]) {
        await db.schema.alterTable("libraries").dropColumn(column).execute();
      }
    },
  };
}
