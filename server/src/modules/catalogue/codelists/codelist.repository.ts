import { randomUUID } from "node:crypto";
import type { Db } from "../../../db/database.js";
import type { CodelistOptionsTable } from "../../../db/schema.js";
import type { CatalogueListQuery } from "../shared/catalogue-schema.js";
import { equalsAnyCase, likeAnyCase } from "../shared/catalogue-sql.js";
import type { CodelistInput, CodelistOptionInput, CodelistOptionView, CodelistView } from "./codelist.schema.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function toOption(row: CodelistOptionsTable): CodelistOptionView {
  return {
    id: row.id,
    codelistId: row.codelist_id,
    value: row.value,
    label: row.label,
    sortOrder: Number(row.sort_order),
    createTime: row.created_at,
    updateTime: row.updated_at,
  };
}

export class CodelistRepository {
  constructor(private readonly db: Db) {}

  #select() {
    return this.db.kysely
      .selectFrom("codelists as l")
      .selectAll("l")
      .select((eb) =>
        eb
          .selectFrom("codelist_options as o")
          .select((inner) => inner.fn.countAll<number>().as("n"))
          .whereRef("o.codelist_id", "=", "l.id")
          .as("option_count"),
      );
  }

  #toView = (row: {
    id: string;
    code: string;
    name: string;
    description: string | null;
    created_at: string;
    updated_at: string;
    option_count: number | null;
  }): CodelistView => ({
    id: row.id,
    code: row.code,
    name: row.name,
    description: row.description,
    optionCount: Number(row.option_count ?? 0),
    createTime: row.created_at,
    updateTime: row.updated_at,
  });

  async list(query: CatalogueListQuery): Promise<{ rows: CodelistView[]; total: number }> {
    let base = this.#select();
    const keyword = query.keyword?.trim();
    if (keyword) base = base.where((eb) => eb.or([likeAnyCase("l.name", keyword), likeAnyCase("l.code", keyword)]));
    const name = query.name?.trim();
    if (name) base = base.where(likeAnyCase("l.name", name));
    const { count } = await base
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .executeTakeFirstOrThrow();
    const rows = await base
      .orderBy("l.name")
      .orderBy("l.id")
      .limit(query.size)
      .offset(query.page * query.size)
      .execute();
    return { rows: rows.map(this.#toView), total: Number(count) };
  }

  async findById(id: string): Promise<CodelistView | undefined> {
    if (!UUID.test(id)) return undefined;
    const row = await this.#select().where("l.id", "=", id).executeTakeFirst();
    return row && this.#toView(row);
  }

  /** By id, or else by code (any case). */
  async findByIdOrCode(idOrCode: string): Promise<CodelistView | undefined> {
    const byId = await this.findById(idOrCode);
    if (byId) return byId;
    const row = await this.#select().where(equalsAnyCase("l.code", idOrCode)).executeTakeFirst();
    return row && this.#toView(row);
  }

  async findClash(input: CodelistInput, exceptId?: string): Promise<"name" | "code" | undefined> {
    let query = this.db.kysely
      .selectFrom("codelists")
      .select(["name", "code"])
      .where((eb) => eb.or([equalsAnyCase("name", input.name), equalsAnyCase("code", input.code)]));
    if (exceptId) query = query.where("id", "<>", exceptId);
    const row = await query.executeTakeFirst();
    if (!row) return undefined;
    return row.code.toLowerCase() === input.code.toLowerCase() ? "code" : "name";
  }

  async insert(input: CodelistInput, now: string): Promise<string> {
    const id = randomUUID();
    await this.db.kysely
      .insertInto("codelists")
      .values({ id, ...input, created_at: now, updated_at: now })
      .execute();
    return id;
  }

  async update(id: string, input: CodelistInput, now: string): Promise<void> {
    await this.db.kysely
      .updateTable("codelists")
      .set({ ...input, updated_at: now })
      .where("id", "=", id)
      .execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.kysely.deleteFrom("codelists").where("id", "=", id).execute();
  }

  /** How many story properties take their options from the list. */
  async propertyCount(id: string): Promise<number> {
    const { count } = await this.db.kysely
      .selectFrom("story_properties")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("codelist_id", "=", id)
      .executeTakeFirstOrThrow();
    return Number(count);
  }

  /** The defaults (text) of the story properties that take their options from the list. */
  async propertyDefaults(id: string): Promise<{ kind: string; default_value: string }[]> {
    const rows = await this.db.kysely
      .selectFrom("story_properties")
      .select(["kind", "default_value"])
      .where("codelist_id", "=", id)
      .where("default_value", "is not", null)
      .execute();
    return rows.flatMap((row) =>
      row.default_value === null ? [] : [{ kind: row.kind, default_value: row.default_value }],
    );
  }

  async options(codelistId: string, query?: { page: number; size: number; keyword?: string }) {
    let base = this.db.kysely.selectFrom("codelist_options").where("codelist_id", "=", codelistId);
    const keyword = query?.keyword?.trim();
    if (keyword) base = base.where((eb) => eb.or([likeAnyCase("label", keyword), likeAnyCase("value", keyword)]));
    const { count } = await base.select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow();
    let rows = base.selectAll().orderBy("sort_order").orderBy("label").orderBy("id");
    if (query) rows = rows.limit(query.size).offset(query.page * query.size);
    return { rows: (await rows.execute()).map(toOption), total: Number(count) };
  }

  async findOption(codelistId: string, optionId: string): Promise<CodelistOptionView | undefined> {
    const row = await this.db.kysely
      .selectFrom("codelist_options")
      .selectAll()
      .where("codelist_id", "=", codelistId)
      .where("id", "=", optionId)
      .executeTakeFirst();
    return row && toOption(row);
  }

  async findOptionByValue(codelistId: string, value: string, exceptId?: string) {
    let query = this.db.kysely
      .selectFrom("codelist_options")
      .select("id")
      .where("codelist_id", "=", codelistId)
      .where("value", "=", value);
    if (exceptId) query = query.where("id", "<>", exceptId);
    return query.executeTakeFirst();
  }

  async insertOption(codelistId: string, input: CodelistOptionInput, now: string): Promise<string> {
    const id = randomUUID();
    await this.db.kysely
      .insertInto("codelist_options")
      .values({
        id,
        codelist_id: codelistId,
        value: input.value,
        label: input.label,
        sort_order: input.sortOrder,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return id;
  }

  async updateOption(optionId: string, input: CodelistOptionInput, now: string): Promise<void> {
    await this.db.kysely
      .updateTable("codelist_options")
      .set({ value: input.value, label: input.label, sort_order: input.sortOrder, updated_at: now })
      .where("id", "=", optionId)
      .execute();
  }

  async deleteOption(optionId: string): Promise<void> {
    await this.db.kysely.deleteFrom("codelist_options").where("id", "=", optionId).execute();
  }
}
