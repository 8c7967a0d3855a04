import type { Kysely } from "kysely";
import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

export function usersAndMenus(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema
        .createTable("users")
        .addColumn("id", types.uuid, (column) => column.primaryKey())
        .addColumn("username", "text", (column) => column.notNull().unique())
        .addColumn("name", "text", (column) => column.notNull())
        .addColumn("password_hash", "text")
        .addColumn("avatar_url", "text")
        .addColumn("admin", types.boolean, (column) => column.notNull())
        .addColumn("status", "integer", (column) => column.notNull().defaultTo(1))
        .addColumn("last_access_ip", "text")
        .addColumn("last_access_time", types.timestamp)
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .execute();

      await db.schema
        .createTable("menus")
        .addColumn("id", types.uuid, (column) => column.primaryKey())
        .addColumn("area", "text", (column) => column.notNull())
        .addColumn("parent_id", types.uuid, (column) => column.references("menus.id").onDelete("cascade"))
        .addColumn("key", "text", (column) => column.notNull())
        .addColumn("path", "text", (column) => column.notNull())
        .addColumn("title", "text", (column) => column.notNull())
        .addColumn("icon", "text")
        .addColumn("component", "text")
        .addColumn("redirect", "text")
        .addColumn("hidden", types.boolean, (column) => column.notNull())
        .addColumn("sort_order", "integer", (column) => column.notNull())
        .addUniqueConstraint("menus_area_key_unique", ["area", "key"])
        .execute();
      await db.schema.createIndex("menus_parent_idx").on("menus").column("parent_id").execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("menus").execute();
      await db.schema.dropTable("users").execute();
    },
  };
}
