import type { EventEmitter } from "node:events";
import type { MessagePort } from "node:worker_threads";
import type ExcelJS from "exceljs";
import type { ExportCell } from "./export-table.js";

export type ExportFormat = "xlsx" | "csv";

export interface ExportColumnOut {
  title: string;
  /** Width in characters (xlsx only). */
  width?: number;
}

/** What the export's worker is given at its start (workerData). */
export interface ExportJob {
  format: ExportFormat;
  columns: ExportColumnOut[];
  sheetName: string;
  /** Where `require` finds exceljs (resolved by the main thread, which knows its own module's place). */
  exceljsPath: string;
  /** Bytes of the file posted to the main thread and not yet taken by its response stream, at most. */
  maxChunksInFlight: number;
}

/** Main thread → worker. */
export type ToExportWorker =
  | { type: "rows"; rows: ExportCell[][] }
  | { type: "end" }
  /** One chunk of the file has gone into the response stream (it did not need to drain). */
  | { type: "taken" };

/** Worker → main thread. */
export type FromExportWorker =
  /** A batch of rows is written (into the sheet, or the CSV): the main thread may send another. */
  | { type: "rows-taken" }
  /** The next bytes of the file, transferred. */
  | { type: "bytes"; chunk: ArrayBuffer }
  /** The file is whole: every byte has been posted before this. */
  | { type: "done"; count: number };

/**
 * The export's worker thread (export-writer.ts starts it): writes the rows it
 * is posted as .xlsx (exceljs's streaming WorkbookWriter) or CSV, and posts
 * the file's bytes back. Its garbage lives in the worker's own small heap.
 *
 * The worker runs this function's text (`String(exportWorker)`), given as
 * source as heif-decoder.ts's worker is, so it runs the same from the
 * TypeScript sources (vitest) and from the compiled dist/. It therefore
 * refers to nothing outside itself: modules come through `require`, and the
 * helpers are inside.
 */
export function exportWorker(require: NodeJS.Require): void {
  const { parentPort, workerData } = require("node:worker_threads") as typeof import("node:worker_threads");
  const { Writable } = require("node:stream") as typeof import("node:stream");
  const { once } = require("node:events") as typeof import("node:events");
  const port = parentPort as MessagePort;
  const job = workerData as ExportJob;

  /** The sheet's XML that may wait for deflate before the rows are held back. */
  const SHEET_BUFFER_BYTES = 256 * 1024;
  /** Control characters (but tab and line ends) are not allowed in the sheet's XML: they go. */
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are what it removes
  const XML_UNSAFE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
  /** A cell's text in a spreadsheet is at most this long (Excel's limit). */
  const MAX_CELL = 32_767;

  // The file's bytes go to the main thread; a chunk counts until the response stream has taken it,
  // so a slow download holds the writer (and through it the row source) back.
  let chunksInFlight = 0;
  let waitingForCredit: (() => void) | undefined;
  const toMain = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      // A copy of its own to transfer: a chunk may be a view into a buffer that other chunks share.
      const bytes = new Uint8Array(chunk.byteLength);
      bytes.set(chunk);
      port.postMessage({ type: "bytes", chunk: bytes.buffer } satisfies FromExportWorker, [bytes.buffer]);
      chunksInFlight++;
      if (chunksInFlight < job.maxChunksInFlight) callback();
      else waitingForCredit = () => callback();
    },
  });

  // Row batches are written one after the other; "taken" answers chunks at once (a batch may be waiting for them).
  const inbox: ToExportWorker[] = [];
  let wake: (() => void) | undefined;
  port.on("message", (message: ToExportWorker) => {
    if (message.type === "taken") {
      chunksInFlight--;
      const resume = waitingForCredit;
      waitingForCredit = undefined;
      resume?.();
      return;
    }
    inbox.push(message);
    wake?.();
  });
  async function* batches(): AsyncGenerator<ExportCell[][]> {
    for (;;) {
      while (inbox.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const message = inbox.shift()!;
      if (message.type === "end") return;
      if (message.type === "rows") yield message.rows;
    }
  }

  async function writeXlsx(): Promise<number> {
    const workbook = new (require(job.exceljsPath) as typeof ExcelJS).stream.xlsx.WorkbookWriter({
      stream: toMain,
      useStyles: true,
      useSharedStrings: false,
    });
    const sheet = workbook.addWorksheet(sheetTitle(job.sheetName), { views: [{ state: "frozen", ySplit: 1 }] });
    sheet.columns = job.columns.map((column, index) => ({ key: String(index), width: column.width ?? 18 }));
    const header = sheet.addRow(job.columns.map((column) => column.title));
    header.font = { bold: true };
    header.commit();
    const zipInput = sheetZipInput(sheet);
    let count = 0;
    for await (const rows of batches()) {
      for (const cells of rows) {
        sheet.addRow(cells.map(cellValue)).commit();
        count++;
        if (zipInput._writableState.length >= SHEET_BUFFER_BYTES) await once(zipInput, "drain");
        if (toMain.writableNeedDrain) await once(toMain, "drain");
      }
      port.postMessage({ type: "rows-taken" } satisfies FromExportWorker);
    }
    sheet.commit();
    // Resolves when the zip has ended `toMain`: every byte is posted.
    await workbook.commit();
    return count;
  }

  async function writeCsv(): Promise<number> {
    const write = async (text: string) => {
      if (!toMain.write(text)) await once(toMain, "drain");
    };
    // UTF-8 with a BOM, so Excel reads Chinese; RFC 4180 quoting; CRLF.
    await write(`\uFEFF${job.columns.map((column) => csvField(column.title)).join(",")}\r\n`);
    let count = 0;
    for await (const rows of batches()) {
      for (const cells of rows) {
        await write(`${cells.map(csvField).join(",")}\r\n`);
        count++;
      }
      port.postMessage({ type: "rows-taken" } satisfies FromExportWorker);
    }
    await new Promise<void>((resolve, reject) =>
      toMain.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
    return count;
  }

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
      throw new Error("exceljs's sheet stream is not piped to one zip entry input: export-worker.ts needs a look");
    return input as ZipEntryInput;
  }

  function cellValue(cell: ExportCell): ExcelJS.CellValue {
    if (cell === null || typeof cell === "number") return cell;
    // A formula is never written: text that starts like one stays text (and is shown as typed).
    const cleaned = cell.replace(XML_UNSAFE, "");
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

  (job.format === "csv" ? writeCsv() : writeXlsx()).then(
    // The main thread ends the worker once it has this.
    (count) => port.postMessage({ type: "done", count } satisfies FromExportWorker),
    (error: unknown) => {
      // Thrown outside the promise, so the worker ends with it and the main thread's `error` event has it.
      setImmediate(() => {
        throw error;
      });
    },
  );
}
