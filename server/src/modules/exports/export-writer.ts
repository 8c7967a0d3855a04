import { type EventEmitter, once } from "node:events";
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
 * Chinese, RFC 4180 quoting, CRLF). Waits for `out` to drain, and for the
 * xlsx's zip entry to take its rows (sheetZipInput), so a slow reader or a
 * slow deflate holds the row source back instead of filling memory. Returns
 * the number of rows written.
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
  const zipInput = sheetZipInput(sheet);
  let count = 0;
  for await (const cells of rows) {
    if (count >= max) break;
    sheet.addRow(cells.map(cellValue)).commit();
    count++;
    if (zipInput._writableState.length >= SHEET_BUFFER_BYTES) await drained(zipInput, out);
    if (out.writableNeedDrain) await drained(out, out);
  }
  sheet.commit();
  await workbook.commit();
  return count;
}

/** The sheet's XML that may wait for deflate before the row source is paused. */
const SHEET_BUFFER_BYTES = 256 * 1024;

interface ZipEntryInput extends EventEmitter {
  _writableState: { length: number; needDrain: boolean };
}

/**
 * The stream exceljs's sheet feeds its XML into. The sheet's own buffer
 * (a `StreamBuf`, exceljs 4.4 `workbook-writer.js` `_openStream`) is piped to
 * the zip entry's input, a PassThrough that archiver makes for it, and writes
 * to it without heeding its answer, so when deflate is slower than rows come
 * that input grows with the row count (736 MiB peak RSS at 1 M rows,
 * docs/audit.md). Its write state is the signal to pause on: `length` bytes
 * wait, and it emits `drain` once they are taken (it sets `needDrain` past
 * its high-water mark). Read from exceljs's internals, so checked here: an
 * exceljs that no longer has them fails every xlsx export (and the tests)
 * rather than growing again unseen.
 */
function sheetZipInput(sheet: object): ZipEntryInput {
  const buffer = (sheet as { stream?: { pipes?: unknown[] } }).stream;
  const input = buffer?.pipes?.length === 1 ? buffer.pipes[0] : undefined;
  const state = (input as Partial<ZipEntryInput> | undefined)?._writableState;
  if (typeof state?.length !== "number" || typeof state.needDrain !== "boolean")
    throw new Error("exceljs's sheet stream is not piped to one zip entry input: export-writer.ts needs a look");
  return input as ZipEntryInput;
}

/** Resolves when `stream` emits `drain`; rejects when `out` closes first (the reader went away). */
async function drained(stream: EventEmitter, out: Writable): Promise<void> {
  const gone = new AbortController();
  const onClose = () => gone.abort(new Error("the export's reader went away"));
  if (out.destroyed) onClose();
  else out.once("close", onClose);
  try {
    await once(stream, "drain", { signal: gone.signal });
  } catch (error) {
    throw gone.signal.aborted ? gone.signal.reason : error;
  } finally {
    out.off("close", onClose);
  }
}

async function writeCsv(
  out: Writable,
  columns: ExportColumnOut[],
  rows: AsyncIterable<ExportCell[]>,
  max: number,
): Promise<number> {
  const write = async (text: string) => {
    if (!out.write(text)) await drained(out, out);
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
