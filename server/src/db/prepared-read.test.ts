import { expect, it } from "vitest";
import { describeEachDialect, useTestDb } from "../test/dialects.js";
import { PreparedListRead } from "./prepared-read.js";

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
