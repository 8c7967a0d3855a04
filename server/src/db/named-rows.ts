import { type SelectQueryBuilder, sql } from "kysely";

/** A page of a back-area list of named rows: the rows whose name contains `keyword`. */
export interface NamedRowsQuery {
  keyword?: string;
  page: number;
  size: number;
}

/**
 * One page of a table of named rows (watermark and download presets, metadata templates, action rules): the
 * rows whose name contains the keyword, in name order, and how many there are. `from` is the owning
 * repository's `selectFrom("<table>")`, so the table stays named where it is owned.
 */
export async function pageByName<DB, TB extends keyof DB & string>(
  from: SelectQueryBuilder<DB, TB, object>,
  query: NamedRowsQuery,
) {
  const base = query.keyword
    ? from.where(sql<boolean>`${sql.ref("name")} like ${`%${query.keyword.replace(/[%_\\]/g, "\\$&")}%`}`)
    : from;
  // Kysely cannot resolve a selection over a table it does not know yet: the count's row is typed here.
  const counted = await base.select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow();
  const { count } = counted as unknown as { count: number | string | bigint };
  const rows = await base
    .selectAll()
    .orderBy(sql.ref("name"))
    .limit(query.size)
    .offset(query.page * query.size)
    .execute();
  return { rows, total: Number(count) };
}
