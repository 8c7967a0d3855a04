import { sql } from "kysely";
import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/**
 * Which format the search index's entries are written in (docs/search.md,
 * "Index format"). Format 2 splits Latin from touching Han (5G手机) and keeps
 * phrases within one run of text (a GAP token at breaks, positions written by
 * the application on PostgreSQL). An index that holds entries of format 1 is
 * marked so, and `dams serve` rewrites them in the background; an empty one
 * starts at format 2.
 */
export function searchFormat(_adapter: DialectAdapter) {
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema
        .createTable("search_format")
        .addColumn("id", "integer", (column) => column.primaryKey().check(sql`id = 1`))
        .addColumn("version", "integer", (column) => column.notNull())
        .execute();
      // Every story has an entry: any story means entries of format 1.
      const { rows } = await sql`select 1 from stories limit 1`.execute(db);
      await sql`insert into search_format (id, version) values (1, ${rows.length > 0 ? 1 : 2})`.execute(db);
    },
    async down(db: AnyKysely): Promise<void> {
      await db.schema.dropTable("search_format").execute();
    },
  };
}
