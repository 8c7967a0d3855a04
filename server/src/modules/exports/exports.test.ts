import { beforeAll, expect, it } from "vitest";
import { auditSince, lastAuditId } from "../../test/audit.js";
import { describeEachDialect } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { api, useStoriesApp } from "../../test/stories-app.js";
import { readCsvRows, readXlsxRows } from "../../test/xlsx-reader.js";
import { fileNameOf } from "../../test/zip.js";
import { AuditRepository, type NewAuditRow } from "../audit/audit.repository.js";

const ROWS = 100_000;
const NOW = Date.parse("2026-10-31T23:00:00.000Z");
const LABELS = [
  "台风“山竹”登陆",
  "=1+1 looks like a formula",
  'quote " and, comma',
  "line\nbreak",
  "  spaced  ",
  "plain",
];

function row(index: number): NewAuditRow {
  return {
    at: new Date(NOW - index * 1000).toISOString(),
    actorId: null,
    actorName: index % 4 === 0 ? "王编辑" : "li.photo",
    ip: "10.0.0.1",
    userAgent: "Mozilla/5.0",
    action: index % 10 === 0 ? "story.delete" : "story.edit",
    targetType: "story",
    targetId: `story-${index}`,
    targetLabel: `${LABELS[index % LABELS.length]} ${index}`,
    result: index % 13 === 0 ? "denied" : "ok",
    before: index % 2 === 0 ? { title: `旧标题 ${index}` } : null,
    after: index % 2 === 0 ? { title: `新标题 ${index}` } : null,
    details: null,
  };
}

const COLUMNS = [
  { key: "at", title: "时间" },
  { key: "actorName", title: "用户" },
  { key: "action", title: "操作" },
  { key: "targetLabel", title: "对象" },
  { key: "result", title: "结果" },
  { key: "before", title: "修改前" },
  { key: "id", title: "编号" },
];

/** What the export must hold for the rows `wanted` (newest first), as text. */
function expectedRows(wanted: NewAuditRow[], ids: Map<string, number>): string[][] {
  return wanted.map((item) => [
    item.at,
    item.actorName ?? "",
    item.action,
    item.targetLabel ?? "",
    item.result,
    item.before ? JSON.stringify(item.before) : "",
    String(ids.get(item.targetId!)),
  ]);
}

describeEachDialect("export of a back-area table", (dialect) => {
  const ctx = useStoriesApp(dialect);
  const call = api(ctx);
  let admin: TestPrincipal;
  let administrator: TestPrincipal;
  const rows = Array.from({ length: ROWS }, (_, index) => row(index));
  const ids = new Map<string, number>();

  beforeAll(async () => {
    admin = await createPrincipal(ctx().db, { username: "export-admin", roleId: "administrator", admin: true });
    administrator = await createPrincipal(ctx().db, { username: "export-role-admin", roleId: "administrator" });
    const repository = new AuditRepository(ctx().db.kysely, ctx().db.adapter);
    // Oldest first, so ids grow with time as in a real log.
    const oldestFirst = [...rows].reverse();
    for (let start = 0; start < ROWS; start += 2000) await repository.insert(oldestFirst.slice(start, start + 2000));
    const page = await ctx()
      .db.kysely.selectFrom("audit_log")
      .select(["id", "target_id"])
      .where("target_type", "=", "story")
      .execute();
    for (const item of page) ids.set(item.target_id!, Number(item.id));
  }, 300_000);

  const month = { from: "2026-10-01T00:00:00.000Z", to: "2026-11-01T00:00:00.000Z" };

  it("writes 100 000 log rows as .xlsx that another reader reads back equal, Chinese intact", async () => {
    const since = await lastAuditId(ctx().db);
    const response = await call(admin, "POST", "/export/table_0", {
      table: "log",
      format: "xlsx",
      filter: month,
      columns: COLUMNS,
      fileName: "操作日志 2026-10",
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("spreadsheetml");
    expect(fileNameOf(response.headers["content-disposition"])).toBe("操作日志 2026-10.xlsx");
    const sheet = await readXlsxRows(response.rawPayload);
    expect(sheet[0]).toEqual(COLUMNS.map((column) => column.title));
    expect(sheet.length - 1).toBe(ROWS);
    expect(sheet.slice(1)).toEqual(expectedRows(rows, ids));
    // The export is in the log itself: who took what, with which filter.
    const records = await auditSince(ctx().db, since);
    expect(records.map((record) => [record.action, record.targetId, record.actorName])).toEqual([
      ["export.table", "log", "export-admin"],
    ]);
    expect(records[0]!.details).toMatchObject({ format: "xlsx", filter: month });
  }, 300_000);

  it("writes the same rows as CSV (UTF-8 with BOM), filtered as on screen", async () => {
    const filter = { ...month, actor: "王编辑", action: "story.delete" };
    const response = await call(admin, "POST", "/export/table_0", {
      table: "log",
      format: "csv",
      filter,
      columns: COLUMNS,
      // The name is made safe as every download's is: no bidi controls, `;` and separators neutralised.
      fileName: "日志\u202egpj.exe; a/b",
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(fileNameOf(response.headers["content-disposition"])).toBe("日志gpj.exe_ a_b.csv");
    expect(String(response.headers["content-disposition"])).not.toMatch(/%E2%80%AE/i);
    expect(response.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const csv = readCsvRows(response.rawPayload.toString("utf8"));
    expect(csv[0]).toEqual(COLUMNS.map((column) => column.title));
    const wanted = rows.filter((item) => item.actorName === "王编辑" && item.action === "story.delete");
    const expected = expectedRows(wanted, ids).map((cells) =>
      // CSV keeps a formula-like text as text with a leading apostrophe.
      cells.map((cell) => (/^[=+\-@]/.test(cell) ? `'${cell}` : cell)),
    );
    expect(csv.slice(1)).toEqual(expected);
  }, 300_000);

  it("refuses what the screen would refuse: the table's permission, unknown tables, columns and filters", async () => {
    const body = { table: "log", columns: COLUMNS, filter: month };
    expect((await call(administrator, "POST", "/export/table_0", body)).statusCode).toBe(403);
    expect((await call(admin, "POST", "/export/table_0", { ...body, table: "nothing" })).statusCode).toBe(404);
    const column = await call(admin, "POST", "/export/table_0", {
      ...body,
      columns: [{ key: "password", title: "x" }],
    });
    expect(column.statusCode).toBe(400);
    expect(column.json().error).toBe("invalid_column");
    const filter = await call(admin, "POST", "/export/table_0", { ...body, filter: { result: "maybe" } });
    expect(filter.json().error).toBe("invalid_filter");
    const range = await call(admin, "POST", "/export/table_0", {
      ...body,
      filter: { from: "2020-01-01T00:00:00Z", to: "2026-01-01T00:00:00Z" },
    });
    expect(range.statusCode).toBe(400);
  });
});
