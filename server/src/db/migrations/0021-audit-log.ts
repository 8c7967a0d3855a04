import { sql } from "kysely";
import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/**
 * The operation log (issue 18, docs/audit.md): one append-only row per
 * change, sign-in, download and refusal, written in the transaction of the
 * change it records. Read newest first by keyset on (at, id); each filter of
 * the log page has its own index ending in (at, id), so a filtered page is
 * one index range walked backwards at any size of the table.
 */
export function auditLog(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema
        .createTable("audit_log")
        .addColumn("id", adapter.name === "postgres" ? "bigint" : "integer", (column) =>
          adapter.name === "postgres" ? column.primaryKey().generatedAlwaysAsIdentity() : column.primaryKey(),
        )
        .addColumn("at", types.timestamp, (column) => column.notNull())
        // No foreign keys: the log outlives the users and things it names.
        .addColumn("actor_id", types.uuid)
        .addColumn("actor_name", "text")
        .addColumn("ip", "text")
        .addColumn("user_agent", "text")
        .addColumn("action", "text", (column) => column.notNull())
        .addColumn("target_type", "text", (column) => column.notNull())
        .addColumn("target_id", "text")
        .addColumn("target_label", "text")
        .addColumn("result", "text", (column) => column.notNull().check(sql`result in ('ok', 'denied', 'failed')`))
        .addColumn("before", types.json)
        .addColumn("after", types.json)
        .addColumn("details", types.json)
        .execute();
      const indexes: [string, string[]][] = [
        ["audit_log_at_idx", ["at", "id"]],
        ["audit_log_actor_idx", ["actor_name", "at", "id"]],
        ["audit_log_action_idx", ["action", "at", "id"]],
        ["audit_log_target_idx", ["target_id", "at", "id"]],
        ["audit_log_target_label_idx", ["target_label", "at", "id"]],
        ["audit_log_result_idx", ["result", "at", "id"]],
      ];
      for (const [name, columns] of indexes) {
        await db.schema.createIndex(name).on("audit_log").columns(columns).execute();
      }
      // The administrator's retention (one row): rows older than retention_days go, archived first when asked.
      await db.schema
        .createTable("audit_settings")
        .addColumn("id", "integer", (column) => column.primaryKey().check(sql`id = 1`))
        .addColumn("retention_days", "integer")
        .addColumn("archive", types.boolean, (column) => column.notNull())
        .addColumn("updated_by", "text")
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .execute();
    },
    async down(db: AnyKysely): Promise<void> {
      await db.schema.dropTable("audit_settings").execute();
      await db.schema.dropTable("audit_log").execute();
    },
  };
}
