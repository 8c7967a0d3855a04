import { once } from "node:events";
import type { Writable } from "node:stream";
import ExcelJS from "exceljs";
import type { ExportCell } from "./export-table.js";

export type ExportFormat = "xlsx" | "csv";

export interface ExportColumnOut {
  title: string;
  /** Width in characters (xlsx only). */
  width?: number;
}

/**
 * Writes a header and the rows to `out` as .xlsx (exceljs's streaming
 * WorkbookWriter: each row is committed and leaves memory; inline strings,
 * no shared-strings table to grow) or CSV (UTF-8 with a BOM so Excel reads
 * Chinese, RFC 4180 quoting, CRLF). Waits for `out` to drain, so a slow
 * reader holds the producer back instead of filling memory. Returns the
 * number of rows written.
 */
export async function writeExport(
  format: ExportFormat,
  out: Writable,
  columns: ExportColumnOut[],
  rows: AsyncIterable<ExportCell[]>,
  options: { sheetName?: string; maxRows?: number } = {},
): Promise<number> {
  const max = options.maxRows ?? Number.POSITIVE_INFINITY;
  if (format === "csv") return writeCsv(out, columns, rows, max);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetTitle(options.sheetName ?? "Sheet1"), {
    views: [{ state: "frozen", ySplit: 1 }],
  });
  sheet.columns = columns.map((column, index) => ({ key: String(index), width: column.width ?? 18 }));
  const header = sheet.addRow(columns.map((column) => column.title));
  header.font = { bold: true };
  header.commit();
  let count = 0;
  for await (const cells of rows) {
    if (count >= max) break;
    sheet.addRow(cells.map(cellValue)).commit();
    count++;
    if (out.writableNeedDrain) await once(out, "drain");
  }
  sheet.commit();
  await workbook.commit();
  return count;
}

async function writeCsv(
  out: Writable,
  columns: ExportColumnOut[],
  rows: AsyncIterable<ExportCell[]>,
  max: number,
): Promise<number> {
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, "drain");
  };
  await write(`\uFEFF${columns.map((column) => csvField(column.title)).join(",")}\r\n`);
  let count = 0;
  for await (const cells of rows) {
    if (count >= max) break;
    await write(`${cells.map((cell) => csvField(cell)).join(",")}\r\n`);
    count++;
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return count;
}

/** Control characters (but tab and line ends) are not allowed in the sheet's XML: they go. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are what it removes
const XML_UNSAFE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
/** A cell's text in a spreadsheet is at most this long (Excel's limit). */
const MAX_CELL = 32_767;

function cellValue(cell: ExportCell): ExcelJS.CellValue {
  if (cell === null || typeof cell === "number") return cell;
  return safeText(cell);
}

function safeText(text: string): string {
  // A formula is never written: text that starts like one stays text (and is shown as typed).
  const cleaned = text.replace(XML_UNSAFE, "");
  return cleaned.length > MAX_CELL ? cleaned.slice(0, MAX_CELL) : cleaned;
}

function csvField(cell: ExportCell): string {
  if (cell === null) return "";
  if (typeof cell === "number") return String(cell);
  // A leading =, +, - or @ would be a formula to a spreadsheet (CSV injection): a quote makes it text.
  const text = /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A sheet's name: at most 31 characters, none of []:*?/\. */
function sheetTitle(name: string): string {
  return name.replace(/[[\]:*?/\\]/g, " ").slice(0, 31) || "Sheet1";
}
