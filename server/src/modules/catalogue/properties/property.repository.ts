import { randomUUID } from "node:crypto";
import type { Db } from "../../../db/database.js";
import type { StoryPropertiesTable } from "../../../db/schema.js";
import { equalsAnyCase, likeAnyCase } from "../shared/catalogue-sql.js";
import type {
  PropertyKind,
  PropertyListQuery,
  PropertyLookupQuery,
  StoryPropertyInput,
  StoryPropertyView,
  StoryType,
} from "./property.schema.js";

/** `*` in the back area's library filter: the properties of every library (library_id null). */
export const EVERY_LIBRARY = "*";

type Row = StoryPropertiesTable & { codelist_name: string | null };

export class PropertyRepository {
  constructor(private readonly db: Db) {}

  #select() {
    return this.db.kysely
      .selectFrom("story_properties as p")
      .leftJoin("codelists as l", "l.id", "p.codelist_id")
      .selectAll("p")
      .select("l.name as codelist_name");
  }

  async #withOptions(rows: Row[]): Promise<StoryPropertyView[]> {
    const listIds = [...new Set(rows.flatMap((row) => (row.codelist_id ? [row.codelist_id] : [])))];
    const options =
      listIds.length === 0
        ? []
        : await this.db.kysely
            .selectFrom("codelist_options")
            .select(["codelist_id", "value", "label"])
            .where("codelist_id", "in", listIds)
            .orderBy("sort_order")
            .orderBy("label")
            .orderBy("id")
            .execute();
    const { readBoolean } = this.db.adapter;
    return rows.map((row) => ({
      id: row.id,
      storyType: row.story_type as StoryType,
      libraryId: row.library_id,
      name: row.name,
      label: row.label,
      kind: row.kind as PropertyKind,
      required: readBoolean(row.required),
      defaultValue: row.default_value,
      codelistId: row.codelist_id,
      codelistName: row.codelist_name,
      options: options
        .filter((option) => option.codelist_id === row.codelist_id)
        .map(({ value, label }) => ({ value, label })),
      sortOrder: Number(row.sort_order),
      isquick: readBoolean(row.isquick),
      createTime: row.created_at,
      updateTime: row.updated_at,
    }));
  }

  async list(query: PropertyListQuery): Promise<{ rows: StoryPropertyView[]; total: number }> {
    let base = this.#select();
    if (query.storytype) base = base.where("p.story_type", "=", query.storytype);
    if (query.libraryId === EVERY_LIBRARY) base = base.where("p.library_id", "is", null);
    else if (query.libraryId) base = base.where("p.library_id", "=", query.libraryId);
    if (query.isquick !== undefined) base = base.where("p.isquick", "=", query.isquick);
    const keyword = query.keyword?.trim();
    if (keyword) base = base.where((eb) => eb.or([likeAnyCase("p.name", keyword), likeAnyCase("p.label", keyword)]));
    const { count } = await base
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .executeTakeFirstOrThrow();
    const rows = await base
      .orderBy("p.story_type")
      .orderBy("p.library_id")
      .orderBy("p.sort_order")
      .orderBy("p.name")
      .orderBy("p.id")
      .limit(query.size)
      .offset(query.page * query.size)
      .execute();
    return { rows: await this.#withOptions(rows), total: Number(count) };
  }

  /** The properties of a form: a library's own and every library's, quick ones first. */
  async lookup(query: PropertyLookupQuery): Promise<StoryPropertyView[]> {
    let base = this.#select();
    if (query.storytype) base = base.where("p.story_type", "=", query.storytype);
    const libraryId = query.libraryId?.trim();
    base = libraryId
      ? base.where((eb) => eb.or([eb("p.library_id", "is", null), eb("p.library_id", "=", libraryId)]))
      : base.where("p.library_id", "is", null);
    if (query.isquick !== undefined) base = base.where("p.isquick", "=", query.isquick);
    const rows = await base
      .orderBy("p.isquick", "desc")
      .orderBy("p.sort_order")
      .orderBy("p.name")
      .orderBy("p.id")
      .execute();
    // A library's own property replaces every library's of the same type and name.
    const own = new Set(
      rows.filter((row) => row.library_id !== null).map((row) => `${row.story_type}/${row.name.toLowerCase()}`),
    );
    const kept = rows.filter(
      (row) => row.library_id !== null || !own.has(`${row.story_type}/${row.name.toLowerCase()}`),
    );
    return this.#withOptions(kept);
  }

  async findById(id: string): Promise<StoryPropertyView | undefined> {
    const row = await this.#select().where("p.id", "=", id).executeTakeFirst();
    return row && (await this.#withOptions([row]))[0];
  }

  async findDuplicate(input: StoryPropertyInput, exceptId?: string): Promise<{ id: string } | undefined> {
    let query = this.db.kysely
      .selectFrom("story_properties")
      .select("id")
      .where("story_type", "=", input.storyType)
      .where(equalsAnyCase("name", input.name));
    query =
      input.libraryId === null
        ? query.where("library_id", "is", null)
        : query.where("library_id", "=", input.libraryId);
    if (exceptId) query = query.where("id", "<>", exceptId);
    return query.executeTakeFirst();
  }

  #columns(input: StoryPropertyInput) {
    return {
      story_type: input.storyType,
      library_id: input.libraryId,
      name: input.name,
      label: input.label,
      kind: input.kind,
      required: input.required,
      default_value: input.defaultValue,
      codelist_id: input.codelistId,
      sort_order: input.sortOrder,
      isquick: input.isquick,
    };
  }

  async insert(input: StoryPropertyInput, now: string): Promise<string> {
    const id = randomUUID();
    await this.db.kysely
      .insertInto("story_properties")
      .values({ id, ...this.#columns(input), created_at: now, updated_at: now })
      .execute();
    return id;
  }

  async update(id: string, input: StoryPropertyInput, now: string): Promise<void> {
    await this.db.kysely
      .updateTable("story_properties")
      .set({ ...this.#columns(input), updated_at: now })
      .where("id", "=", id)
      .execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.kysely.deleteFrom("story_properties").where("id", "=", id).execute();
  }
}
