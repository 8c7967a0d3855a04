import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/**
 * Automation actions (issue 17, modules/actions): rules (a trigger, its
 * conditions, the steps to take) and their runs, one per (rule, story event),
 * with the outcome of each step, the error and the duration.
 */
export function actionRules(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema
        .createTable("action_rules")
        .addColumn("id", types.uuid, (column) => column.primaryKey())
        .addColumn("name", "text", (column) => column.notNull().unique())
        .addColumn("enabled", types.boolean, (column) => column.notNull())
        .addColumn("trigger", "text", (column) => column.notNull())
        .addColumn("conditions", types.json, (column) => column.notNull())
        .addColumn("steps", types.json, (column) => column.notNull())
        /** The account the rule acts as (its author): its rights bound what the steps may do. */
        .addColumn("owner_id", "text", (column) => column.notNull())
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .execute();
      await db.schema
        .createIndex("action_rules_trigger_idx")
        .on("action_rules")
        .columns(["trigger", "enabled"])
        .execute();
      await db.schema
        .createTable("action_runs")
        .addColumn("id", types.uuid, (column) => column.primaryKey())
        .addColumn("rule_id", types.uuid, (column) => column.notNull())
        .addColumn("event_id", types.uuid, (column) => column.notNull())
        .addColumn("trigger", "text", (column) => column.notNull())
        .addColumn("library_id", "text", (column) => column.notNull())
        .addColumn("story_id", types.uuid, (column) => column.notNull())
        .addColumn("story_title", "text", (column) => column.notNull())
        .addColumn("state", "text", (column) => column.notNull())
        .addColumn("step_results", types.json, (column) => column.notNull())
        .addColumn("error", "text")
        .addColumn("job_id", "text")
        .addColumn("started_at", types.timestamp)
        .addColumn("finished_at", types.timestamp)
        .addColumn("duration_ms", "integer")
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .execute();
      // One run per rule and event: an evaluation job that runs twice (at least once) finds it.
      await db.schema
        .createIndex("action_runs_event_idx")
        .on("action_runs")
        .columns(["rule_id", "event_id"])
        .unique()
        .execute();
      await db.schema
        .createIndex("action_runs_rule_idx")
        .on("action_runs")
        .columns(["rule_id", "created_at"])
        .execute();
    },
    async down(db: AnyKysely): Promise<void> {
      await db.schema.dropTable("action_runs").execute();
      await db.schema.dropTable("action_rules").execute();
    },
  };
}
