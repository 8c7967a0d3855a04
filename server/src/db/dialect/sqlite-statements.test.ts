import Database from "better-sqlite3";
import { Kysely, SqliteDialect, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { withStatementCache } from "./sqlite.js";

describe("SQLite statement cache", () => {
  it("hands out a prepared statement again, but not while it is being iterated, and keeps at most its size", () => {
    const raw = new Database(":memory:");
    raw.exec("create table t (n integer); insert into t values (1), (2), (3)");
    const database = withStatementCache(raw, 2);
    const first = database.prepare("select n from t order by n");
    expect(database.prepare("select n from t order by n")).toBe(first);
    expect(first.all()).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);

    // A stream still reading holds its statement: the same SQL gets a fresh one, and both read correctly.
    const iterator = first.iterate();
    expect(iterator.next().value).toEqual({ n: 1 });
    const second = database.prepare("select n from t order by n");
    expect(second).not.toBe(first);
    expect(second.all()).toHaveLength(3);
    expect(iterator.next().value).toEqual({ n: 2 });
    iterator.return?.();

    // Least recently used out: after two other statements, the first SQL is prepared anew.
    database.prepare("select 1");
    database.prepare("select 2");
    expect(database.prepare("select n from t order by n")).not.toBe(second);
    database.close();
    expect(raw.open).toBe(false);
  });

  it("binds booleans as 1 and 0: as values, in lists, and written into the SQL", async () => {
    const raw = new Database(":memory:");
    raw.exec("create table t (n integer, b integer)");
    const kysely = new Kysely<{ t: { n: number; b: number | boolean } }>({
      dialect: new SqliteDialect({ database: withStatementCache(raw) }),
    });
    await kysely
      .insertInto("t")
      .values([
        { n: 1, b: true },
        { n: 2, b: false },
      ])
      .execute();
    expect(raw.prepare("select n, b from t order by n").all()).toEqual([
      { n: 1, b: 1 },
      { n: 2, b: 0 },
    ]);
    const ns = async (query: Promise<{ n: number }[]>) => (await query).map((row) => row.n);
    expect(await ns(kysely.selectFrom("t").select("n").where("b", "=", true).execute())).toEqual([1]);
    expect(await ns(kysely.selectFrom("t").select("n").where("b", "in", [false]).orderBy("n").execute())).toEqual([2]);
    expect(await ns(kysely.selectFrom("t").select("n").where("b", "=", sql.lit(true)).execute())).toEqual([1]);
    await kysely.updateTable("t").set({ b: true }).where("n", "=", 2).execute();
    expect(raw.prepare("select sum(b) as s from t").get()).toEqual({ s: 2 });
    await kysely.destroy();
  });
});
