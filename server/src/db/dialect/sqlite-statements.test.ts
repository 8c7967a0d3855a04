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

  it("gives the rows better-sqlite3 gives: every kind of value, repeated names, RETURNING, a stream", async () => {
    const raw = new Database(":memory:");
    raw.exec("create table t (id integer primary key, s text, r real, b blob, n integer)");
    const database = withStatementCache(raw);
    const write = database.prepare("insert into t (s, r, b, n) values ('中文', 1.5, x'0102', null) returning *");
    expect(write.all()).toEqual(raw.prepare("select * from t").all());
    const statement = 'select id, s, r, b, n, 7 as id, s as "a""b", \'__\' as "constructor" from t';
    const ours = database.prepare(statement).all();
    const theirs = raw.prepare(statement).all();
    expect(ours).toEqual(theirs);
    expect(ours.map((row) => Object.keys(row as object))).toEqual(theirs.map((row) => Object.keys(row as object)));
    expect([...database.prepare(statement).iterate()]).toEqual(theirs);
    // A __proto__ column keeps better-sqlite3's own objects.
    expect(database.prepare('select 1 as "__proto__"').all()).toEqual(raw.prepare('select 1 as "__proto__"').all());
    database.close();
  });

  it("reads a table's new columns after a schema change, by a statement prepared before it", async () => {
    const raw = new Database(":memory:");
    raw.exec("create table t (a integer); insert into t values (1)");
    const kysely = new Kysely<{ t: { a: number } }>({
      dialect: new SqliteDialect({ database: withStatementCache(raw) }),
    });
    const all = () => sql`select * from t`.execute(kysely).then((result) => result.rows);
    expect(await all()).toEqual([{ a: 1 }]);
    await sql`alter table t add column b text default 'x'`.execute(kysely);
    expect(await all()).toEqual([{ a: 1, b: "x" }]);
    await sql`alter table t rename column b to c`.execute(kysely);
    expect(await all()).toEqual([{ a: 1, c: "x" }]);
    // Changed behind the cache's back (another connection): the row's width tells.
    raw.exec("alter table t add column d integer default 4");
    expect(await all()).toEqual([{ a: 1, c: "x", d: 4 }]);
    await kysely.destroy();
  });
});
