import { type Kysely, sql } from "kysely";
import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/**
 * The durable job queue (docs/jobs.md): one row per job, claimed by workers
 * with a lease (lease_owner + lease_expires_at) that they renew while running.
 */
export function jobs(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema
        .createTable("jobs")
        .addColumn("id", types.uuid, (column) => column.primaryKey())
        .addColumn("name", "text", (column) => column.notNull())
        .addColumn("payload", types.json, (column) => column.notNull())
        .addColumn("state", "text", (column) =>
          column.notNull().check(sql`state in ('queued', 'running', 'succeeded', 'dead', 'cancelled')`),
        )
        .addColumn("attempts", "integer", (column) => column.notNull().defaultTo(0))
        .addColumn("max_attempts", "integer", (column) => column.notNull())
        .addColumn("run_at", types.timestamp, (column) => column.notNull())
        .addColumn("lease_owner", "text")
        .addColumn("lease_expires_at", types.timestamp)
        .addColumn("progress", "integer", (column) =>
          column.notNull().defaultTo(0).check(sql`progress between 0 and 100`),
        )
        .addColumn("last_error", "text")
        .addColumn("dedupe_key", "text")
        .addColumn("cancel_requested", types.boolean, (column) => column.notNull())
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addColumn("started_at", types.timestamp)
        .addColumn("finished_at", types.timestamp)
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .execute();
      // Claiming: the due queued jobs, and the running ones whose lease expired.
      await db.schema.createIndex("jobs_claim_idx").on("jobs").columns(["state", "run_at"]).execute();
      await db.schema.createIndex("jobs_lease_idx").on("jobs").columns(["state", "lease_expires_at"]).execute();
      // Listing: newest first, by state or by name.
      await db.schema.createIndex("jobs_state_created_idx").on("jobs").columns(["state", "created_at"]).execute();
      await db.schema.createIndex("jobs_name_created_idx").on("jobs").columns(["name", "created_at"]).execute();
      await db.schema.createIndex("jobs_created_idx").on("jobs").column("created_at").execute();
      // At most one queued or running job per name and dedupe key.
      await db.schema
        .createIndex("jobs_dedupe_idx")
        .on("jobs")
        .columns(["name", "dedupe_key"])
        .unique()
        .where(sql<boolean>`state in ('queued', 'running') and dedupe_key is not null`)
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("jobs").execute();
    },
  };
}
