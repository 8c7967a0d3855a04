import type { Kysely, Selectable } from "kysely";
import type { Db } from "../../db/database.js";
import { type NamedRowsQuery, pageByName } from "../../db/named-rows.js";
import type { Database, MetadataTemplatesTable } from "../../db/schema.js";

export type TemplateRow = Selectable<MetadataTemplatesTable>;

/** SQL of the metadata templates. */
export class MetadataTemplatesRepository {
  constructor(
    private readonly db: Db,
    private readonly kysely: Kysely<Database> = db.kysely,
  ) {}

  transaction<T>(work: (trx: Kysely<Database>, repository: MetadataTemplatesRepository) => Promise<T>): Promise<T> {
    return this.kysely.transaction().execute((trx) => work(trx, new MetadataTemplatesRepository(this.db, trx)));
  }

  #row(row: TemplateRow): TemplateRow {
    return { ...row, template_values: this.db.adapter.readJson(row.template_values) };
  }

  async list(query: NamedRowsQuery) {
    const { rows, total } = await pageByName(this.kysely.selectFrom("metadata_templates"), query);
    return { rows: rows.map((row) => this.#row(row)), total };
  }

  async find(id: string): Promise<TemplateRow | undefined> {
    const row = await this.kysely.selectFrom("metadata_templates").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? this.#row(row) : undefined;
  }

  async named(name: string): Promise<{ id: string } | undefined> {
    return this.kysely.selectFrom("metadata_templates").select("id").where("name", "=", name).executeTakeFirst();
  }

  async insert(row: TemplateRow): Promise<void> {
    await this.kysely
      .insertInto("metadata_templates")
      .values({ ...row, template_values: this.db.adapter.writeJson(row.template_values) })
      .execute();
  }

  async update(row: TemplateRow): Promise<void> {
    const { id, ...rest } = row;
    await this.kysely
      .updateTable("metadata_templates")
      .set({ ...rest, template_values: this.db.adapter.writeJson(rest.template_values) })
      .where("id", "=", id)
      .execute();
  }

  async delete(id: string): Promise<void> {
    await this.kysely.deleteFrom("metadata_templates").where("id", "=", id).execute();
  }
}
