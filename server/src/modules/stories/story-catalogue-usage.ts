import { type Kysely, sql } from "kysely";
import type { Db } from "../../db/database.js";
import type { Database } from "../../db/schema.js";
import type { CatalogueUsage, MergedBy, UsageKind } from "../catalogue/shared/catalogue-usage.js";
import { StoriesRepository } from "./stories.repository.js";
import { StoryActionsRepository } from "./story-actions.repository.js";

/** Story columns holding one catalogue value, and those holding a JSON list of them. */
const singleColumns = { theme: "theme", source: "source", category: "category" } as const;
const listColumns = { tag: "tags", keyword: "keywords", author: "authors" } as const;
const ACTIONS_PER_STATEMENT = 500;
/** The story field an entry kind is, as an edit's story action names its fields. */
const fieldNames: Record<UsageKind, string> = {
  theme: "theme",
  source: "source",
  category: "category",
  tag: "tags",
  keyword: "keywords",
  author: "authors",
};

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

  /**
   * Rewrites the stories that use `from` to use `into`: a single value becomes
   * the target's name (or its id, where the story held the id); in a list the
   * name is replaced and a story that had both keeps one, in the first place
   * either had. The search entries of the changed stories are rewritten
   * through the same executor, as every story write does, and each changed
   * story gets an `edit` action of `by` naming the field and the merge.
   */
  async repoint(
    kind: UsageKind,
    from: { id: string; name: string },
    into: { id: string; name: string },
    executor: Kysely<Database>,
    by: MergedBy,
  ): Promise<number> {
    const name = from.name.toLowerCase();
    const now = new Date().toISOString();
    const changed: { id: string; library_id: string }[] = [];
    if (kind in singleColumns) {
      const column = singleColumns[kind as keyof typeof singleColumns];
      const rows = await executor
        .selectFrom("stories")
        .select(["id", "library_id", column])
        .where(this.singleValue(column, name, from.id.toLowerCase()))
        .execute();
      for (const row of rows) {
        const held = String((row as Record<string, unknown>)[column] ?? "").toLowerCase();
        const value = held === from.id.toLowerCase() && held !== name ? into.id : into.name;
        await executor
          .updateTable("stories")
          .set({ [column]: value, updated_at: now })
          .where("id", "=", row.id)
          .execute();
        changed.push(row);
      }
    } else {
      const column = listColumns[kind as keyof typeof listColumns];
      const rows = await executor
        .selectFrom("stories")
        .select(["id", "library_id", column])
        .where(this.listContains(column, name))
        .execute();
      for (const row of rows) {
        const raw = (row as Record<string, unknown>)[column];
        const list = raw === null || raw === undefined ? [] : this.db.adapter.readJson<unknown[]>(raw);
        const merged = replaceInList(Array.isArray(list) ? list.map(String) : [], from.name, into.name);
        await executor
          .updateTable("stories")
          .set({ [column]: this.db.adapter.writeJson(merged), updated_at: now })
          .where("id", "=", row.id)
          .execute();
        changed.push(row);
      }
    }
    await new StoriesRepository(executor, this.db.adapter).search().index.upsertMany(changed.map((row) => row.id));
    const actions = new StoryActionsRepository(executor, this.db.adapter);
    // In slices: one statement's bound values stay under the dialects' limits however many stories changed.
    for (let start = 0; start < changed.length; start += ACTIONS_PER_STATEMENT) {
      await actions.recordMany(
        changed.slice(start, start + ACTIONS_PER_STATEMENT).map((row) => ({
          libraryId: row.library_id,
          storyId: row.id,
          userId: by.id,
          username: by.username,
          action: "edit",
          ip: by.ip,
          details: { fields: [fieldNames[kind]], merged: { kind, from: from.name, into: into.name } },
        })),
        now,
      );
    }
    return changed.length;
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

/** The list with `from` (any case) replaced by `into`, each name once (any case), in first-seen order. */
export function replaceInList(list: string[], from: string, into: string): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const item of list) {
    const value = item.toLowerCase() === from.toLowerCase() ? into : item;
    const key = value.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(value);
  }
  return result;
}
