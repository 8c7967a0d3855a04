import { sql } from "kysely";
import type { Db } from "../db/database.js";
import type { AuditRecord } from "../modules/audit/audit.repository.js";
import { AuditRepository } from "../modules/audit/audit.repository.js";

/** The operation log's rows written after `afterId`, oldest first. */
export async function auditSince(db: Db, afterId: number): Promise<AuditRecord[]> {
  const rows = await new AuditRepository(db.kysely, db.adapter).page({}, undefined, 10_000);
  return rows.filter((row) => row.id > afterId).reverse();
}

/** The id of the newest row of the operation log (0 when empty). */
export async function lastAuditId(db: Db): Promise<number> {
  const [row] = await new AuditRepository(db.kysely, db.adapter).page({}, undefined, 1);
  return row?.id ?? 0;
}

/**
 * Makes every INSERT into `table` fail (a trigger), until the returned
 * function is called: how a test breaks a change half-way through its
 * transaction, on either dialect.
 */
export async function failInsertsInto(db: Db, table: string): Promise<() => Promise<void>> {
  const name = `fail_${table}_inserts`;
  if (db.adapter.name === "sqlite") {
    await sql
      .raw(
        `create trigger ${name} before insert on ${table} begin select raise(abort, 'inserts into ${table} fail (test)'); end`,
      )
      .execute(db.kysely);
    return async () => {
      await sql.raw(`drop trigger ${name}`).execute(db.kysely);
    };
  }
  await sql
    .raw(
      `create function ${name}() returns trigger language plpgsql as $$ begin raise exception 'inserts into ${table} fail (test)'; end $$`,
    )
    .execute(db.kysely);
  await sql
    .raw(`create trigger ${name} before insert on ${table} for each row execute function ${name}()`)
    .execute(db.kysely);
  return async () => {
    await sql.raw(`drop trigger ${name} on ${table}`).execute(db.kysely);
    await sql.raw(`drop function ${name}()`).execute(db.kysely);
  };
}
