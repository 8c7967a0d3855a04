import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Db } from "../../../db/database.js";
import type { Database } from "../../../db/schema.js";
import type { CatalogueListQuery } from "../shared/catalogue-schema.js";
import { equalsAnyCase, likeAnyCase } from "../shared/catalogue-sql.js";

export interface CategoryRecord {
  id: string;
  name: string;
  parentId: string | null;
  parentName: string | null;
  description: string | null;
  sortOrder: number;
  childCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface CategoryValues {
  name: string;
  parentId: string | null;
  description: string | null;
  sortOrder: number;
}

export class CategoryRepository {
  constructor(private readonly db: Db) {}

  /** Runs `work` in one transaction: this repository on it, and the executor for the stories' side of a merge. */
  async transaction<T>(work: (repository: CategoryRepository, executor: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.db.kysely
      .transaction()
      .execute((trx) => work(new CategoryRepository({ ...this.db, kysely: trx }), trx));
  }

  #select() {
    return this.db.kysely
      .selectFrom("categories as c")
      .leftJoin("categories as p", "p.id", "c.parent_id")
      .select((eb) => [
        "c.id",
        "c.name",
        "c.parent_id",
        "p.name as parent_name",
        "c.description",
        "c.sort_order",
        "c.created_at",
        "c.updated_at",
        eb
          .selectFrom("categories as k")
          .select((inner) => inner.fn.countAll<number>().as("n"))
          .whereRef("k.parent_id", "=", "c.id")
          .as("child_count"),
      ]);
  }

  #toRecord = (row: {
    id: string;
    name: string;
    parent_id: string | null;
    parent_name: string | null;
    description: string | null;
    sort_order: number;
    created_at: string;
    updated_at: string;
    child_count: number | null;
  }): CategoryRecord => ({
    id: row.id,
    name: row.name,
    parentId: row.parent_id,
    parentName: row.parent_name,
    description: row.description,
    sortOrder: Number(row.sort_order),
    childCount: Number(row.child_count ?? 0),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });

  async list(query: CatalogueListQuery): Promise<{ rows: CategoryRecord[]; total: number }> {
    let base = this.db.kysely.selectFrom("categories as c");
    const keyword = query.keyword?.trim();
    if (keyword)
      base = base.where((eb) => eb.or([likeAnyCase("c.name", keyword), likeAnyCase("c.description", keyword)]));
    const name = query.name?.trim();
    if (name) base = base.where(likeAnyCase("c.name", name));
    const { count } = await base.select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow();
    const ids = base.select("c.id");
    const rows = await this.#select()
      .where("c.id", "in", ids)
      .orderBy("c.sort_order")
      .orderBy("c.name")
      .orderBy("c.id")
      .limit(query.size)
      .offset(query.page * query.size)
      .execute();
    return { rows: rows.map(this.#toRecord), total: Number(count) };
  }

  async all(): Promise<CategoryRecord[]> {
    const rows = await this.#select().orderBy("c.sort_order").orderBy("c.name").orderBy("c.id").execute();
    return rows.map(this.#toRecord);
  }

  async findById(id: string): Promise<CategoryRecord | undefined> {
    const row = await this.#select().where("c.id", "=", id).executeTakeFirst();
    return row && this.#toRecord(row);
  }

  /** A sibling (same parent) with this name, regardless of case. */
  async findSibling(parentId: string | null, name: string, exceptId?: string): Promise<{ id: string } | undefined> {
    let query = this.db.kysely.selectFrom("categories").select("id").where(equalsAnyCase("name", name));
    query = parentId === null ? query.where("parent_id", "is", null) : query.where("parent_id", "=", parentId);
    if (exceptId) query = query.where("id", "<>", exceptId);
    return query.executeTakeFirst();
  }

  /** The ids from a category up to its root. */
  async ancestry(id: string): Promise<string[]> {
    const chain: string[] = [];
    let current: string | null = id;
    while (current && !chain.includes(current)) {
      chain.push(current);
      const row: { parent_id: string | null } | undefined = await this.db.kysely
        .selectFrom("categories")
        .select("parent_id")
        .where("id", "=", current)
        .executeTakeFirst();
      current = row?.parent_id ?? null;
    }
    return chain;
  }

  async insert(values: CategoryValues, now: string): Promise<string> {
    const id = randomUUID();
    await this.db.kysely
      .insertInto("categories")
      .values({
        id,
        name: values.name,
        parent_id: values.parentId,
        description: values.description,
        sort_order: values.sortOrder,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return id;
  }

  async update(id: string, values: CategoryValues, now: string): Promise<void> {
    await this.db.kysely
      .updateTable("categories")
      .set({
        name: values.name,
        parent_id: values.parentId,
        description: values.description,
        sort_order: values.sortOrder,
        updated_at: now,
      })
      .where("id", "=", id)
      .execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.kysely.deleteFrom("categories").where("id", "=", id).execute();
  }
}
