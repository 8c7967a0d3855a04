import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { type ExportCell, exportCells } from "./export-table.js";
import { exportWorkersRunning, writeExport } from "./export-writer.js";
import { SheetRowCounter } from "./export-writer.test-support.js";

const ROWS = 60_000;
/**
 * Rows made but not yet arrived at the reader. What may wait is the batches
 * posted to the export's worker, a few hundred KiB of XML before deflate, and
 * deflate's, the chunks' and the streams' own buffers after it (measured: at
 * most ~4 000 of these rows); without backpressure on the zip stage every row
 * is made before the first one arrives.
 */
const MAX_IN_FLIGHT = 12_000;

const COLUMNS = ["编号", "时间", "用户", "IP", "操作", "对象类型", "对象", "结果"].map((title) => ({ title }));

function cells(index: number): ExportCell[] {
  return [
    index,
    new Date(Date.UTC(2026, 10, 1) - index * 1000).toISOString(),
    `user.${index % 5000}`,
    `10.0.${index % 256}.${(index * 7) % 256}`,
    index % 10 === 0 ? "story.delete" : "story.edit",
    "story",
    `台风“山竹”登陆 现场（一） #${index}`,
    index % 13 === 0 ? "denied" : "ok",
  ];
}

it("the xlsx writer pulls rows no faster than its reader takes them (the zip stage holds it back)", async () => {
  const reader = new SheetRowCounter();
  let pulled = 0;
  let mostInFlight = 0;
  async function* rows(): AsyncGenerator<ExportCell[]> {
    for (let index = 0; index < ROWS; index++) {
      // Rows that reached the reader, the header row aside.
      const inFlight = pulled - Math.max(0, reader.rows - 1);
      mostInFlight = Math.max(mostInFlight, inFlight);
      if (inFlight > MAX_IN_FLIGHT)
        throw new Error(`${pulled} rows made, ${pulled - inFlight} arrived: the writer ran ahead of its reader`);
      pulled++;
      yield cells(index);
    }
  }
  const finished = new Promise<void>((resolve, reject) => reader.on("finish", resolve).on("error", reject));

  const written = await writeExport("xlsx", reader, COLUMNS, rows(), { sheetName: "操作日志" });
  await finished;

  expect(written).toBe(ROWS);
  expect(reader.rows).toBe(ROWS + 1);
  expect(mostInFlight).toBeLessThanOrEqual(MAX_IN_FLIGHT);
  expect(exportWorkersRunning()).toBe(0);
}, 120_000);

it("the xlsx writer stops pulling rows and fails when its reader goes away", async () => {
  // A reader that takes nothing, and is gone once the first row is made (a closed download).
  const reader = new Writable({ write: () => {} });
  let pulled = 0;
  async function* rows(): AsyncGenerator<ExportCell[]> {
    for (let index = 0; index < ROWS; index++) {
      pulled++;
      yield cells(index);
      if (index === 0) reader.destroy();
    }
  }

  await expect(writeExport("xlsx", reader, COLUMNS, rows())).rejects.toThrow("went away");
  expect(pulled).toBeLessThan(MAX_IN_FLIGHT);
  expect(exportWorkersRunning()).toBe(0);
}, 120_000);

it("an export that stops early closes its row source: the reader gone, or the row limit reached", async () => {
  let closed = 0;
  const gone = new Writable({ write: () => {} });
  /** A row source as a table's is: rows read on demand, its cursor let go when it is closed. */
  async function* source(leaveAfterFirst: boolean): AsyncGenerator<{ id: number }> {
    try {
      for (let id = 0; id < ROWS; id++) {
        yield { id };
        if (leaveAfterFirst) gone.destroy();
      }
    } finally {
      closed++;
    }
  }
  const cellsOf = async (rows: AsyncGenerator<{ id: number }>) =>
    exportCells(rows, await rows.next(), [(row) => row.id, (row) => `story ${row.id}`]);

  await expect(writeExport("csv", gone, COLUMNS.slice(0, 2), await cellsOf(source(true)))).rejects.toThrow("went away");
  expect(closed).toBe(1);

  const taken = new Writable({ write: (_chunk, _encoding, done) => done() });
  expect(await writeExport("csv", taken, COLUMNS.slice(0, 2), await cellsOf(source(false)), { maxRows: 10 })).toBe(10);
  expect(closed).toBe(2);
  expect(exportWorkersRunning()).toBe(0);
}, 120_000);

for (const format of ["xlsx", "csv"] as const) {
  it(`a ${format} export whose row source fails half-way fails with its error, the worker stopped`, async () => {
    const reader = new SheetRowCounter();
    async function* rows(): AsyncGenerator<ExportCell[]> {
      for (let index = 0; index < ROWS; index++) {
        if (index === 5_000) throw new Error("the database went away at row 5000");
        yield cells(index);
      }
    }

    await expect(writeExport(format, reader, COLUMNS, rows())).rejects.toThrow("the database went away at row 5000");
    expect(exportWorkersRunning()).toBe(0);
    // The file was not ended: the response is destroyed by the route, not finished as if whole.
    expect(reader.writableEnded).toBe(false);
  }, 120_000);
}

it("a worker that runs out of its heap ends its export with an error, and the next export works", async () => {
  // Cells as long as a cell may be: one batch of them does not fit a 4 MiB heap.
  const long = "长".repeat(32_767);
  async function* rows(): AsyncGenerator<ExportCell[]> {
    for (let index = 0; index < 2_000; index++) yield [index, long, long, long];
  }
  const heap = { maxOldGenerationSizeMb: 4, maxYoungGenerationSizeMb: 1 };

  await expect(writeExport("xlsx", new SheetRowCounter(), COLUMNS.slice(0, 4), rows(), { heap })).rejects.toMatchObject(
    { code: "ERR_WORKER_OUT_OF_MEMORY" },
  );
  expect(exportWorkersRunning()).toBe(0);

  const reader = new SheetRowCounter();
  const finished = new Promise<void>((resolve, reject) => reader.on("finish", resolve).on("error", reject));
  async function* few(): AsyncGenerator<ExportCell[]> {
    for (let index = 0; index < 1_000; index++) yield cells(index);
  }
  expect(await writeExport("xlsx", reader, COLUMNS, few())).toBe(1_000);
  await finished;
  expect(reader.rows).toBe(1_001);
}, 120_000);

it("exports when the server runs from its TypeScript sources under tsx (as the benchmarks start it)", async () => {
  // tsx compiles with esbuild's keepNames, which wraps named functions in a `__name` helper that the worker,
  // evaluated from the function's text, does not have unless the writer gives it one.
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "dams-export-tsx-"));
  const script = path.join(directory, "export.mts");
  fs.writeFileSync(
    script,
    [
      `import { Writable } from "node:stream";`,
      `import { writeExport } from ${JSON.stringify(path.resolve(import.meta.dirname, "export-writer.ts"))};`,
      `async function* rows() { for (let index = 0; index < 3; index++) yield [index, "台风 " + index]; }`,
      `const out = new Writable({ write: (_chunk, _encoding, done) => done() });`,
      `console.log("written", await writeExport("xlsx", out, [{ title: "a" }, { title: "b" }], rows()));`,
    ].join("\n"),
  );
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", script]);
    expect(stdout.trim()).toBe("written 3");
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}, 120_000);
