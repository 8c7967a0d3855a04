import { sql } from "kysely";
import type { AnyKysely } from "./index.js";

/**
 * The story properties whose text the search index holds behind their tag
 * (docs/property-access.md, "Search"): every property some role may not see.
 * Filled from the rules that hide one; when there are some, the entries are
 * marked as of an older format, and `dams serve` rewrites them in the
 * background (format 3 tags the restricted properties' text).
 */
export function searchRestrictedProperties() {
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema
        .createTable("search_restricted_properties")
        .addColumn("property", "text", (column) => column.primaryKey())
        .execute();
      await sql`insert into search_restricted_properties (property)
        select distinct property from property_access where not visible`.execute(db);
      const { rows } = await sql`select 1 from search_restricted_properties limit 1`.execute(db);
      // Without a hidden property, entries of format 2 are entries of format 3.
      if (rows.length === 0) await sql`update search_format set version = 3 where version = 2`.execute(db);
    },
    async down(db: AnyKysely): Promise<void> {
      await db.schema.dropTable("search_restricted_properties").execute();
      await sql`update search_format set version = 2 where version = 3`.execute(db);
    },
  };
}
