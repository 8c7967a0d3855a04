import { sql } from "kysely";
import type { Db } from "../../db/database.js";
import type { CatalogueUsage, UsageKind } from "../catalogue/shared/catalogue-usage.js";

/** Story columns holding one catalogue value, and those holding a JSON list of them. */
const singleColumns = { theme: "theme", source: "source", category: "category" } as const;
const listColumns = { tag: "tags", keyword: "keywords", author: "authors" } as const;

/**
 * How many stories use a catalogue entry, for the catalogue's delete refusal.
 * Stories keep the entry's name (or, for single values, possibly its id), compared
 * case-insensitively as the catalogue's uniqueness is.
 */
export class StoryCatalogueUsage implements CatalogueUsage {
  constructor(private readonly db: Db) {}

  async count(kind: UsageKind, entry: { id: string; name: string }): Promise<number> {
    const name = entry.name.toLowerCase();
    const condition =
      kind in singleColumns
        ? this.singleValue(singleColumns[kind as keyof typeof singleColumns], name, entry.id.toLowerCase())
        : this.listContains(listColumns[kind as keyof typeof listColumns], name);
    const row = await this.db.kysely
      .selectFrom("stories")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where(condition)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  private singleValue(column: string, name: string, id: string) {
    return sql<boolean>`lower(${sql.ref(`stories.${column}`)}) in (${name}, ${id})`;
  }

  private listContains(column: string, name: string) {
    const ref = sql.ref(`stories.${column}`);
    return this.db.adapter.name === "postgres"
      ? sql<boolean>`exists (select 1 from jsonb_array_elements_text(case when jsonb_typeof(${ref}) = 'array' then ${ref} else '[]'::jsonb end) as item(value) where lower(item.value) = ${name})`
      : sql<boolean>`exists (select 1 from json_each(case when json_valid(${ref}) and json_type(${ref}) = 'array' then ${ref} else '[]' end) as item where lower(item.value) = ${name})`;
  }
}
