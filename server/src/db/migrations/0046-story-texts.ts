import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/**
 * A composite's text (issue 15, composites as manuscripts): one row per
 * composite story with the sanitised TipTap JSON document, the HTML the
 * server wrote from it, and its plain words (for the search index).
 */
export function storyTexts(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema
        .createTable("story_texts")
        .addColumn("story_id", types.uuid, (column) => column.primaryKey().references("stories.id").onDelete("cascade"))
        .addColumn("doc", "text", (column) => column.notNull())
        .addColumn("html", "text", (column) => column.notNull())
        .addColumn("words", "text", (column) => column.notNull())
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .execute();
    },
    async down(db: AnyKysely): Promise<void> {
      await db.schema.dropTable("story_texts").execute();
    },
  };
}
