import { randomUUID } from "node:crypto";
import { type Kysely, type SqlBool, sql } from "kysely";
import type { Db } from "../../../db/database.js";
import type { Database } from "../../../db/schema.js";
import type { CatalogueListQuery } from "../shared/catalogue-schema.js";
import { likeAnyCase } from "../shared/catalogue-sql.js";
import type { EntryRow, EntryTable } from "./entry-definition.js";

// One repository serves five tables of the same shape; their columns are
// named by the definitions, so the query builder is used untyped here only.
// biome-ignore lint/suspicious/noExplicitAny: the table is chosen at run time from EntryTable.
type LooseDb = Kysely<any>;

export interface EntryTableShape {
  table: EntryTable;
  searchColumns: readonly string[];
  orderBy: readonly { column: string; direction: "asc" | "desc" }[];
  uniqueColumns: readonly string[];
}

export class EntryRepository {
  readonly #db: LooseDb;

  constructor(
    private readonly db: Db,
    private readonly shape: EntryTableShape,
  ) {
    this.#db = db.kysely as unknown as LooseDb;
  }

  /** Runs `work` in one transaction: this repository on it, and the executor for the stories' side of a merge. */
  async transaction<T>(work: (repository: EntryRepository, executor: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.db.kysely
      .transaction()
      .execute((trx) => work(new EntryRepository({ ...this.db, kysely: trx }, this.shape), trx));
  }

  /** Adds `amount` to a counter column (a merged keyword's uses). */
  async increment(id: string, column: string, amount: number, now: string): Promise<void> {
    await this.#db
      .updateTable(this.shape.table)
      .set((eb) => ({ [column]: eb(column, "+", amount), updated_at: now }))
      .where("id", "=", id)
      .execute();
  }

  #filtered(query: { keyword?: string; name?: string }) {
    let base = this.#db.selectFrom(this.shape.table);
    const keyword = query.keyword?.trim();
    if (keyword) {
      base = base.where((eb) => eb.or(this.shape.searchColumns.map((column) => likeAnyCase(column, keyword))));
    }
    const name = query.name?.trim();
    if (name) base = base.where(likeAnyCase("name", name));
    return base;
  }

  #ordered<T extends { orderBy: (column: string, direction: "asc" | "desc") => T }>(builder: T): T {
    let ordered = builder;
    for (const { column, direction } of this.shape.orderBy) ordered = ordered.orderBy(column, direction);
    return ordered.orderBy("id", "asc");
  }

  async list(query: CatalogueListQuery): Promise<{ rows: EntryRow[]; total: number }> {
    const base = this.#filtered(query);
    const { count } = await base.select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow();
    const rows = await this.#ordered(base.selectAll())
      .limit(query.size)
      .offset(query.page * query.size)
      .execute();
    return { rows: rows as EntryRow[], total: Number(count) };
  }

  /** Every entry matching the keyword, up to `limit`, in list order (pickers). */
  async all(keyword: string | undefined, limit: number): Promise<EntryRow[]> {
    const rows = await this.#ordered(this.#filtered({ keyword }).selectAll()).limit(limit).execute();
    return rows as EntryRow[];
  }

  /** Rows ordered by another column first (keywords by use count). */
  async top(column: string, keyword: string | undefined, limit: number): Promise<EntryRow[]> {
    const rows = await this.#ordered(this.#filtered({ keyword }).selectAll().orderBy(column, "desc"))
      .limit(limit)
      .execute();
    return rows as EntryRow[];
  }

  async findById(id: string): Promise<EntryRow | undefined> {
    const row = await this.#db.selectFrom(this.shape.table).selectAll().where("id", "=", id).executeTakeFirst();
    return row as EntryRow | undefined;
  }

  /** An entry equal to `values` in the unique columns (any case), other than `exceptId`. */
  async findDuplicate(values: Record<string, unknown>, exceptId?: string): Promise<EntryRow | undefined> {
    let query = this.#db.selectFrom(this.shape.table).selectAll();
    for (const column of this.shape.uniqueColumns) {
      const value = values[column];
      const text = typeof value === "string" ? value.toLowerCase() : "";
      query = query.where(sql<SqlBool>`coalesce(lower(${sql.ref(column)}), '') = ${text}`);
    }
    if (exceptId) query = query.where("id", "<>", exceptId);
    return (await query.executeTakeFirst()) as EntryRow | undefined;
  }

  async insert(values: Record<string, unknown>, now: string): Promise<EntryRow> {
    const row = { id: randomUUID(), ...values, created_at: now, updated_at: now };
    await this.#db.insertInto(this.shape.table).values(row).execute();
    return (await this.findById(row.id))!;
  }

  async update(id: string, values: Record<string, unknown>, now: string): Promise<EntryRow | undefined> {
    const result = await this.#db
      .updateTable(this.shape.table)
      .set({ ...values, updated_at: now })
      .where("id", "=", id)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return undefined;
    return this.findById(id);
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.#db.deleteFrom(this.shape.table).where("id", "=", id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
