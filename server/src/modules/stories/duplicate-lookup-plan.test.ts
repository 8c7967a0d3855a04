import { randomUUID } from "node:crypto";
import {
  type CompiledQuery,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  sql,
} from "kysely";
import { expect, it } from "vitest";
import { describeEachDialect, useTestDb } from "../../test/dialects.js";
import { StoriesRepository } from "./stories.repository.js";

/** Records the SQL of every query run through it (compiled as the executor compiles it). */
class QueryRecorder implements KyselyPlugin {
  readonly queries: CompiledQuery[] = [];
  constructor(private readonly compile: (args: PluginTransformQueryArgs) => CompiledQuery) {}
  transformQuery(args: PluginTransformQueryArgs) {
    this.queries.push(this.compile(args));
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs) {
    return args.result;
  }
}

describeEachDialect("the upload's exact-duplicate lookup", (dialect) => {
  const ctx = useTestDb(dialect);

  it("reads the library's hash index, even with statistics taken while most stories had no hash", async () => {
    const db = ctx();
    const now = new Date().toISOString();
    const story = (index: number, hash: string | null) => ({
      id: randomUUID(),
      library_id: index % 2 ? "product" : "material",
      type: "photo" as const,
      half_product: false,
      status: "committed" as const,
      title: `story ${index}`,
      caption: "",
      authors: "[]",
      keywords: "[]",
      tags: "[]",
      properties: "{}",
      oid: randomUUID(),
      version_no: 1,
      content_sha256: hash,
      processing_state: "done" as const,
      created_at: new Date(Date.parse(now) - index * 1000).toISOString(),
      updated_at: now,
    });
    const hash = "a".repeat(64);
    const rows = [...Array.from({ length: 600 }, (_, index) => story(index, null)), story(601, hash), story(603, hash)];
    for (let offset = 0; offset < rows.length; offset += 100)
      await db.kysely
        .insertInto("stories")
        .values(rows.slice(offset, offset + 100))
        .execute();
    // What generated data (or a library of composites) leaves behind: the hash column looks useless to the planner.
    await sql`analyze`.execute(db.kysely);

    const recorder = new QueryRecorder((args) => db.kysely.getExecutor().compileQuery(args.node, args.queryId));
    const repository = new StoriesRepository(db.kysely.withPlugin(recorder), db.adapter, {
      onStoriesChanged: async () => {},
    });
    const found = await repository.withSha256(["product"], hash);
    expect(found.map((row) => row.title)).toEqual(["story 603", "story 601"]);

    const query = recorder.queries.at(-1)!;
    const plan = await db.kysely.transaction().execute(async (trx) => {
      // PostgreSQL reads a table this small whole whatever its indexes: ask which index it would use.
      if (dialect === "postgres") await sql`set local enable_seqscan = off`.execute(trx);
      const explain = dialect === "sqlite" ? "explain query plan " : "explain ";
      const { rows } = await trx.executeQuery<Record<string, unknown>>({
        ...query,
        sql: explain + query.sql,
      });
      return rows.map((row) => String(row.detail ?? row["QUERY PLAN"])).join("\n");
    });
    expect(plan).toMatch(
      dialect === "sqlite"
        ? /SEARCH stories USING INDEX stories_library_hash_idx \(library_id=\? AND content_sha256=\?\)/
        : /Index Scan using stories_library_hash_idx/,
    );
  });
});
