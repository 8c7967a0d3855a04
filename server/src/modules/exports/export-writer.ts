import { EventEmitter, once } from "node:events";
import { createRequire } from "node:module";
import type { Writable } from "node:stream";
import { type ResourceLimits, Worker } from "node:worker_threads";
import type { ExportCell } from "./export-table.js";
import {
  type ExportColumnOut,
  type ExportFormat,
  type ExportJob,
  exportWorker,
  type FromExportWorker,
  type ToExportWorker,
} from "./export-worker.js";

export type { ExportColumnOut, ExportFormat } from "./export-worker.js";

/**
 * The export worker's heap. Its garbage (the sheet's XML, the zip's buffers,
 * the rows posted to it) is collected in this small heap instead of growing
 * the API's: the server's peak RSS for 1 000 000 rows measured in
 * docs/audit.md. The worker holds a few batches of rows and 256 KiB of XML
 * at a time, so it needs far less than this; a worker that still runs out
 * ends its export with ERR_WORKER_OUT_OF_MEMORY, not the server.
 */
export const EXPORT_WORKER_HEAP: ResourceLimits = { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 8 };
/**
 * Rows posted to the worker in one message. Small, so a batch is gone before V8's young generation
 * promotes it (with 500, and the log's pages at 2 000 rows, the API's old space grew by ~150 MiB of
 * garbage between collections; docs/audit.md).
 */
const BATCH_ROWS = 200;
/** Batches posted and not yet written by the worker, at most: the row source waits beyond. */
const MAX_BATCHES_IN_FLIGHT = 4;
/** Chunks of the file posted back and not yet taken by the response stream, at most: the worker waits beyond. */
const MAX_CHUNKS_IN_FLIGHT = 8;

// `__name`: what tsx (esbuild with keepNames) wraps named functions in when the server runs from its sources; the
// worker is evaluated from the function's text, without the module that defines it.
const WORKER_SOURCE = `var __name = (target) => target;\n(${String(exportWorker)})(require);`;
let exceljsPath: string | undefined;
let workersRunning = 0;

/** Export workers alive in this process (they end with their export, however it ends). */
export function exportWorkersRunning(): number {
  return workersRunning;
}

/**
 * Writes a header and the rows to `out` as .xlsx or CSV (export-worker.ts)
 * and returns the number of rows written. The writing runs in a worker thread
 * with a heap of its own (EXPORT_WORKER_HEAP), off the API's event loop; the
 * rows are read here and posted to it in batches, at most a few batches
 * ahead of what it has written, and its bytes come back into `out` with the
 * same care: the worker waits while `out` needs to drain. So a slow reader or
 * a slow deflate holds the row source back instead of filling memory.
 *
 * Rejects, with the worker stopped, when the row source throws, the worker
 * fails (its heap exceeded included) or `out` closes before the end (the
 * reader went away).
 */
export async function writeExport(
  format: ExportFormat,
  out: Writable,
  columns: ExportColumnOut[],
  rows: AsyncIterable<ExportCell[]>,
  options: { sheetName?: string; maxRows?: number; heap?: ResourceLimits } = {},
): Promise<number> {
  const max = options.maxRows ?? Number.POSITIVE_INFINITY;
  exceljsPath ??= createRequire(import.meta.url).resolve("exceljs");
  const job: ExportJob = {
    format,
    columns,
    sheetName: options.sheetName ?? "Sheet1",
    exceljsPath,
    maxChunksInFlight: MAX_CHUNKS_IN_FLIGHT,
  };
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: job,
    resourceLimits: options.heap ?? EXPORT_WORKER_HEAP,
  });
  workersRunning++;
  worker.once("exit", () => workersRunning--);
  const post = (message: ToExportWorker) => worker.postMessage(message);

  // The first failure stops everything: the worker's, or the reader's going away.
  const stop = new AbortController();
  const fail = (error: Error) => {
    if (!stop.signal.aborted) stop.abort(error);
  };
  const onClose = () => fail(new Error("the export's reader went away"));
  worker.on("error", fail);
  worker.once("exit", (code) => fail(new Error(`the export's worker stopped (exit code ${code}) before its end`)));
  if (out.destroyed) onClose();
  else out.once("close", onClose);

  const progress = new EventEmitter();
  let batchesInFlight = 0;
  let chunksOwed = 0;
  const takeOwedChunks = () => {
    for (; chunksOwed > 0; chunksOwed--) post({ type: "taken" });
  };
  out.on("drain", takeOwedChunks);
  worker.on("message", (message: FromExportWorker) => {
    switch (message.type) {
      case "bytes":
        if (out.destroyed) return;
        if (out.write(Buffer.from(message.chunk))) post({ type: "taken" });
        else chunksOwed++;
        return;
      case "rows-taken":
        batchesInFlight--;
        progress.emit("rows-taken");
        return;
      case "done":
        progress.emit("done", message.count);
        return;
    }
  });

  const send = async (batch: ExportCell[][]) => {
    while (batchesInFlight >= MAX_BATCHES_IN_FLIGHT) await once(progress, "rows-taken", { signal: stop.signal });
    batchesInFlight++;
    post({ type: "rows", rows: batch });
  };
  try {
    let batch: ExportCell[][] = [];
    let count = 0;
    for await (const cells of rows) {
      stop.signal.throwIfAborted();
      if (count >= max) break;
      batch.push(cells);
      count++;
      if (batch.length === BATCH_ROWS) {
        await send(batch);
        batch = [];
      }
    }
    if (batch.length > 0) await send(batch);
    post({ type: "end" });
    const [written] = (await once(progress, "done", { signal: stop.signal })) as [number];
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
    return written;
  } catch (error) {
    // A wait cut short by `stop` rejects with an AbortError: the reason is what happened.
    throw stop.signal.aborted ? stop.signal.reason : error;
  } finally {
    out.off("close", onClose);
    out.off("drain", takeOwedChunks);
    await worker.terminate();
  }
}
