import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { MODULES, type ModuleName, TABLE_OWNERS, type TableName, TEMPORARY_LEAKS } from "./table-owners.js";

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The source files modules run: no tests, test helpers, migrations (schema history) or declarations. */
function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      return ["test", "test-support", "migrations"].includes(entry.name) ? [] : sourceFiles(full);
    }
    const skipped = /\.(test|test-support|d)\.ts$/.test(entry.name) || !entry.name.endsWith(".ts");
    return skipped ? [] : [full];
  });
}

interface TableReference {
  table: string;
  line: number;
  how: string;
  /** Whether the reference only reads the table (a select, a join, a column reference). */
  reads: boolean;
}

const KYSELY_CALL =
  /\.(selectFrom|insertInto|updateTable|deleteFrom|innerJoin|leftJoin|rightJoin|fullJoin|replaceInto|mergeInto)\(\s*["'`]([a-z_]+)(?:\s+as\s+\w+)?["'`]/g;
const SQL_HELPER = /sql\.(ref|table|id)\(\s*["'`]([a-z_]+)[."'`$]/g;
const SQL_TEMPLATE = /\bsql(?:<[^>`]*>)?`([^`]*)`/g;
const SQL_TABLE_WORD = /\b(from|join|into|update)\s+"?([a-z_]+)"?/gi;
const READING_CALLS = ["selectFrom", "innerJoin", "leftJoin", "rightJoin", "fullJoin"];

/** Where a source text names tables: Kysely's query builder, sql.ref/table/id, and raw sql`…` text. */
function tableReferences(text: string): TableReference[] {
  const lineOf = (index: number) => text.slice(0, index).split("\n").length;
  const found: TableReference[] = [];
  for (const match of text.matchAll(KYSELY_CALL)) {
    const how = match[1]!;
    found.push({ table: match[2]!, line: lineOf(match.index), how, reads: READING_CALLS.includes(how) });
  }
  // sql.ref("alias.column") names aliases and pseudo-tables (excluded) too: only tables count.
  for (const match of text.matchAll(SQL_HELPER)) {
    const table = match[2]!;
    if (table in TABLE_OWNERS) found.push({ table, line: lineOf(match.index), how: `sql.${match[1]}`, reads: true });
  }
  for (const template of text.matchAll(SQL_TEMPLATE)) {
    for (const word of template[1]!.matchAll(SQL_TABLE_WORD)) {
      const table = word[2]!.toLowerCase();
      const reads = ["from", "join"].includes(word[1]!.toLowerCase());
      if (table in TABLE_OWNERS) found.push({ table, line: lineOf(template.index), how: "sql`…`", reads });
    }
  }
  return found;
}

/** The module a file under server/src belongs to, or null outside modules/ (the composition root, db, http). */
function moduleOf(relative: string): string | null {
  const parts = relative.split(path.sep);
  return parts[0] === "modules" ? parts[1]! : null;
}

const NAMED_IMPORT = /import\s+(type\s+)?\{([^}]*)\}\s+from\s+["'](\.[^"']+)["']/g;

/** Repository classes a file (under server/src) imports, with the module they come from. */
function importedRepositories(text: string, relative: string): { name: string; from: string | null; line: number }[] {
  const lineOf = (index: number) => text.slice(0, index).split("\n").length;
  return [...text.matchAll(NAMED_IMPORT)].flatMap((match) =>
    match[2]!
      .split(",")
      .map((name) =>
        name
          .trim()
          .replace(/^type\s+/, "")
          .split(/\s+as\s+/)[0]!
          .trim(),
      )
      .filter((name) => name.endsWith("Repository"))
      .map((name) => ({
        name,
        from: moduleOf(path.join(path.dirname(relative), match[3]!)),
        line: lineOf(match.index),
      })),
  );
}

describe("table ownership", () => {
  const files = sourceFiles(SRC).map((file) => {
    const relative = path.relative(SRC, file);
    return { relative, module: moduleOf(relative), text: fs.readFileSync(file, "utf8") };
  });

  it("finds table references the way the rule needs (the scanner itself)", () => {
    const sample = [
      'await db.selectFrom("stories").selectAll()',
      '.leftJoin("users as u", "u.id", "x.user_id")',
      'await trx.deleteFrom("blobs").where("key", "in", keys)',
      "const condition = sql<boolean>`exists (select 1 from story_terms where kind = 1)`;",
      "sql.ref(`library_grants.level`)",
      'import type { BlobsRepository, BlobRow } from "../blobs/blobs.repository.js";',
    ].join("\n");
    expect(tableReferences(sample).map((found) => [found.table, found.line])).toEqual([
      ["stories", 1],
      ["users", 2],
      ["blobs", 3],
      ["library_grants", 5],
      ["story_terms", 4],
    ]);
    expect(importedRepositories(sample, "modules/stories/x.ts")).toEqual([
      { name: "BlobsRepository", from: "blobs", line: 6 },
    ]);
  });

  it("lists every module folder and only those", () => {
    const folders = fs
      .readdirSync(path.join(SRC, "modules"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(folders).toEqual([...MODULES].sort());
  });

  it("lets only a table's owner query it (and the readers it names, reads only)", () => {
    const used = new Set<(typeof TEMPORARY_LEAKS)[number]>();
    const leaks: string[] = [];
    for (const file of files) {
      for (const reference of tableReferences(file.text)) {
        const where = `${file.relative}:${reference.line} ${reference.how}("${reference.table}")`;
        if (!(reference.table in TABLE_OWNERS)) {
          leaks.push(`${where}: the table has no owner in db/table-owners.ts`);
          continue;
        }
        const ownership: { owner: ModuleName; readBy?: Partial<Record<ModuleName, string>> } =
          TABLE_OWNERS[reference.table as TableName];
        if (file.module === ownership.owner) continue;
        if (reference.reads && file.module && ownership.readBy?.[file.module as ModuleName]) continue;
        const allowed = TEMPORARY_LEAKS.find((leak) => leak.file === file.relative && leak.table === reference.table);
        if (allowed) {
          used.add(allowed);
          continue;
        }
        leaks.push(`${where}: owned by ${ownership.owner}, queried from ${file.module ?? "outside the modules"}`);
      }
    }
    expect(leaks).toEqual([]);
    expect(TEMPORARY_LEAKS.filter((leak) => leak.table && !used.has(leak))).toEqual([]);
  });

  it("lets a module use another module's service, never its repository", () => {
    const used = new Set<(typeof TEMPORARY_LEAKS)[number]>();
    const leaks: string[] = [];
    for (const file of files.filter((candidate) => candidate.module !== null)) {
      for (const found of importedRepositories(file.text, file.relative)) {
        if (found.from === file.module) continue;
        const allowed = TEMPORARY_LEAKS.find((leak) => leak.file === file.relative && leak.repository === found.name);
        if (allowed) {
          used.add(allowed);
          continue;
        }
        leaks.push(`${file.relative}:${found.line} uses ${found.name} of module ${found.from}`);
      }
    }
    expect(leaks).toEqual([]);
    expect(TEMPORARY_LEAKS.filter((leak) => leak.repository && !used.has(leak))).toEqual([]);
  });
});
