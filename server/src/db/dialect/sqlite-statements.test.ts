import Database from "better-sqlite3";
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
});
