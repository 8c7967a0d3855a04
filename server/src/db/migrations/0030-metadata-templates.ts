import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/** Metadata templates (issue 17, modules/metadata-templates): named sets of story field values with variables. */
export function metadataTemplates(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema
        .createTable("metadata_templates")
        .addColumn("id", types.uuid, (column) => column.primaryKey())
        .addColumn("name", "text", (column) => column.notNull().unique())
        .addColumn("description", "text")
        .addColumn("template_values", types.json, (column) => column.notNull())
        .addColumn("created_by", "text")
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .execute();
    },
    async down(db: AnyKysely): Promise<void> {
      await db.schema.dropTable("metadata_templates").execute();
    },
  };
}
