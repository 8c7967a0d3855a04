import { CompiledQuery } from "kysely";
import { openDatabase } from "../server/src/db/database.js";
import { SearchRepository } from "../server/src/modules/search/search.repository.js";
const db = openDatabase({ kind: "sqlite", file: "/tmp/sp-keep/sqlite-100000/dams.sqlite" });
const repo = new SearchRepository(db.kysely, db.adapter);
const user = await db.kysely.selectFrom("users").select("id").where("username", "=", "bench").executeTakeFirstOrThrow();
const filter = { libraryIds: ["product", "material", "personal", "department", "publish"], viewerId: user.id, fulltext: process.argv[2] ?? "typhoon", ...(process.argv[3] ? { types: ["photo" as const], capturedFrom: "2023-01-01T00:00:00.000Z" } : {}) };
const q = repo.listQuery(filter, { page: 0, size: 50, sort: process.argv[3] as "date" | undefined });
console.log(q.sql);
const plan = await db.kysely.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${q.sql}`, [...q.parameters]));
console.log(plan.rows.map((r) => r.detail).join("\n"));
for (let i = 0; i < 3; i++) {
  let t = performance.now(); await db.kysely.executeQuery(q); const page = performance.now() - t;
  t = performance.now(); const l = await repo.list(filter, { page: 0, size: 50, sort: process.argv[3] as "date" | undefined }); const list = performance.now() - t;
  t = performance.now(); await repo.facets(filter); const facets = performance.now() - t;
  console.log({ page, list, facets, total: l.total, capped: l.capped });
}
await db.close();
