import { CompiledQuery } from "kysely";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { databaseUrl, describeEachDialect, useTestDb } from "../../test/dialects.js";
import { isoTimestamp } from "./postgres.js";

/** What the parser replaced: V8's Date reading PostgreSQL's text form. */
const byDate = (value: string) => new Date(value).toISOString();

describe("isoTimestamp", () => {
  it("reads a UTC timestamptz as Date does, for every fraction length", () => {
    const seconds = ["2026-11-27 10:11:12", "1999-12-31 23:59:59", "1000-01-01 00:00:00", "2024-02-29 12:00:00"];
    const fractions = ["", ".5", ".05", ".123", ".1234", ".999999", ".000001", ".9995", ".100000"];
    for (const base of seconds)
      for (const fraction of fractions) {
        const value = `${base}${fraction}+00`;
        expect(isoTimestamp(value), value).toBe(byDate(value));
      }
  });

  it("agrees with Date on random instants as PostgreSQL prints them", () => {
    for (let i = 0; i < 2000; i++) {
      const instant = new Date(Date.UTC(1970 + (i % 80), i % 12, 1 + (i % 28), i % 24, i % 60, (i * 7) % 60));
      const micros = String((i * 7919) % 1_000_000)
        .padStart(6, "0")
        .replace(/0+$/, "");
      const value = `${instant.toISOString().slice(0, 19).replace("T", " ")}${micros ? `.${micros}` : ""}+00`;
      expect(isoTimestamp(value), value).toBe(byDate(value));
    }
  });

  it("keeps a year before 100, which Date reads as 19xx/20xx", () => {
    expect(isoTimestamp("0001-01-01 00:00:00+00")).toBe("0001-01-01T00:00:00.000Z");
    expect(byDate("0001-01-01 00:00:00+00")).toBe("2001-01-01T00:00:00.000Z");
  });

  it("leaves other offsets to Date", () => {
    for (const value of ["2026-11-27 18:11:12.5+08", "2026-11-27 05:41:12-04:30", "2026-11-27 10:11:12+00:00"])
      expect(isoTimestamp(value), value).toBe(byDate(value));
  });
});

describeEachDialect("rows through Kysely as the driver's own query gives them", (dialect) => {
  const db = useTestDb(dialect);
  it.runIf(dialect === "postgres")("for every kind of column, nulls and repeated names", async () => {
    const statement = `select 1::int8 as big, 2.5::float8 as f, 'x'::text as t, null::text as n,
      '2026-11-27 10:11:12.345678+00'::timestamptz as at, true as yes, '{"k":[1,"二"]}'::jsonb as j,
      array[1,2]::int4[] as list, 'aa'::bytea as bytes, 'u' as "__proto__", 'v' as "a""b", 1 as t
      from generate_series(1, 3)`;
    const ours = await db().kysely.executeQuery(CompiledQuery.raw(statement));
    const client = new pg.Client({ connectionString: await databaseUrl(db()) });
    await client.connect();
    try {
      // pg's own parsers but the two dams sets (timestamps as ISO strings, int8 as numbers).
      const theirs = await client.query({
        text: statement,
        types: {
          getTypeParser: (oid: number, format?: string) =>
            oid === 1184 ? isoTimestamp : oid === 20 ? Number : pg.types.getTypeParser(oid, format as "text"),
        },
      } as pg.QueryConfig);
      expect(ours.rows).toEqual(theirs.rows);
      expect(ours.rows.map((row) => Object.keys(row as object))).toEqual(theirs.rows.map((row) => Object.keys(row)));
      expect((ours.rows[0] as { at: string }).at).toBe("2026-11-27T10:11:12.345Z");
    } finally {
      await client.end();
    }
  });
});
