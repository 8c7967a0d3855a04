import { sql } from "kysely";
import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/**
 * Self-registration as an administrator's setting (issue 14 item 2,
 * docs/security.md "Accounts"): one row — `off`, `approval` (new accounts
 * wait, disabled, for an administrator) or `open` — and the role a new
 * account gets. An installation starts with `approval` and `viewer`.
 */
export function registration(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema
        .createTable("registration_settings")
        .addColumn("id", "integer", (column) => column.primaryKey().check(sql`id = 1`))
        .addColumn("mode", "text", (column) => column.notNull().check(sql`mode in ('off', 'approval', 'open')`))
        .addColumn("default_role_id", "text", (column) => column.notNull())
        .addColumn("updated_by", "text")
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .execute();
      await db
        .insertInto("registration_settings")
        .values({
          id: 1,
          mode: "approval",
          default_role_id: "viewer",
          updated_by: null,
          updated_at: new Date().toISOString(),
        })
        .execute();
    },
    async down(db: AnyKysely): Promise<void> {
      await db.schema.dropTable("registration_settings").execute();
    },
  };
}
