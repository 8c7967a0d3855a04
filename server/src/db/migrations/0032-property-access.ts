import { sql } from "kysely";
import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/**
 * Field-level access (/manage/userrole/property): per role, whether a story
 * property (a key of a story's custom `properties`) is visible and whether it
 * is editable. No row: visible and editable. Hidden implies not editable.
 */
export function propertyAccess(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema
        .createTable("property_access")
        .addColumn("role_id", "text", (column) => column.notNull().references("roles.id").onDelete("cascade"))
        .addColumn("property", "text", (column) => column.notNull())
        .addColumn("visible", types.boolean, (column) => column.notNull())
        .addColumn("editable", types.boolean, (column) => column.notNull())
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .addPrimaryKeyConstraint("property_access_pk", ["role_id", "property"])
        .addCheckConstraint("property_access_hidden_read_only", sql`visible or not editable`)
        .execute();
    },
    async down(db: AnyKysely): Promise<void> {
      await db.schema.dropTable("property_access").execute();
    },
  };
}
