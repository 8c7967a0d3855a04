import { expect, it } from "vitest";
import { describeEachDialect, useTestDb } from "../test/dialects.js";
import { PreparedListRead, ShapedQueries } from "./prepared-read.js";

describeEachDialect("a read of a list compiled once per length", (dialect) => {
  const db = useTestDb(dialect);

  it("builds once per list length, runs with each call's values, and builds lists above the bound every time", async () => {
    let builds = 0;
    const roles = new PreparedListRead((kysely, ids) => {
      builds++;
      return kysely.selectFrom("roles").select("id").where("id", "in", ids).orderBy("id");
    }, 2);
    const ids = async (values: string[]) =>
      (await roles.execute(db().kysely, db().adapter, values)).map((row) => row.id);

    expect(await ids(["administrator", "editor"])).toEqual(["administrator", "editor"]);
    expect(await ids(["editor", "no-such-role"])).toEqual(["editor"]);
    expect(builds).toBe(1);
    expect(await ids(["administrator"])).toEqual(["administrator"]);
    expect(await ids(["editor"])).toEqual(["editor"]);
    expect(builds).toBe(2);
    expect(await ids(["editor", "administrator", "no-such-role"])).toEqual(["administrator", "editor"]);
    expect(await ids(["editor", "administrator", "no-such-role"])).toEqual(["administrator", "editor"]);
    expect(builds).toBe(4);
  });
});

describeEachDialect("queries compiled once per shape", (dialect) => {
  const db = useTestDb(dialect);

  it("builds once per shape and runs with each call's values; a shape whose values do not come back whole builds every time", async () => {
    let builds = 0;
    const shaped = new ShapedQueries();
    const byIds = (ids: string[]) =>
      shaped.compile(`ids:${ids.length}`, ids, (values) => {
        builds++;
        return db()
          .kysely.selectFrom("roles")
          .select("id")
          .where("id", "in", [...values])
          .orderBy("id")
          .compile();
      });
    const byPrefix = (prefix: string) =>
      shaped.compile("prefix", [prefix], ([value]) => {
        builds++;
        // The value is transformed into the parameter: the placeholder does not come back whole.
        return db().kysely.selectFrom("roles").select("id").where("id", "like", `${value}%`).orderBy("id").compile();
      });
    const run = async (query: ReturnType<typeof byIds>) =>
      (await db().kysely.executeQuery<{ id: string }>(query)).rows.map((row) => row.id);

    expect(await run(byIds(["administrator", "editor"]))).toEqual(["administrator", "editor"]);
    expect(await run(byIds(["editor", "no-such-role"]))).toEqual(["editor"]);
    expect(builds).toBe(1);
    expect(await run(byIds(["editor"]))).toEqual(["editor"]);
    expect(builds).toBe(2);
    expect(await run(byPrefix("admin"))).toEqual(["administrator"]);
    expect(await run(byPrefix("edit"))).toEqual(["editor"]);
    // Once to find it cannot be prepared, then each call's own build.
    expect(builds).toBe(5);
  });
});
