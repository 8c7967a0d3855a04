import fs from "node:fs";
import readline from "node:readline";
import { SaxesParser } from "saxes";
import yauzl from "yauzl";

/**
 * Reads an exported file back without the writer's library, streaming (a
 * million rows never sit in memory): the .xlsx's first sheet through yauzl
 * (unzip) and saxes (SAX), the CSV line by line. Returns the number of data
 * rows (the header aside) and the cells of the rows `wanted` asks for.
 */
export interface SheetSummary {
  rows: number;
  /** Data row number (1 = the first after the header) → its cells as text. */
  picked: Map<number, string[]>;
}

export function readXlsxSummary(file: string, wanted: (row: number) => boolean): Promise<SheetSummary> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error("no zip"));
      let sheet = false;
      zip.on("entry", (entry: yauzl.Entry) => {
        if (!entry.fileName.startsWith("xl/worksheets/sheet") || sheet) return zip.readEntry();
        sheet = true;
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError ?? new Error("no stream"));
          const summary: SheetSummary = { rows: -1, picked: new Map() };
          const parser = new SaxesParser();
          let cells: string[] | null = null;
          let text: string | null = null;
          let value = "";
          let column = 0;
          parser.on("opentag", (tag) => {
            if (tag.name === "row") {
              summary.rows++;
              cells = summary.rows > 0 && wanted(summary.rows) ? [] : null;
            } else if (cells && tag.name === "c") {
              value = "";
              column = columnIndex(String(tag.attributes.r ?? ""), cells.length);
            } else if (cells && (tag.name === "t" || tag.name === "v")) text = "";
          });
          parser.on("text", (chunk) => {
            if (text !== null) text += chunk;
          });
          parser.on("closetag", (tag) => {
            if (!cells) return;
            if (tag.name === "t" || tag.name === "v") {
              value += text ?? "";
              text = null;
            } else if (tag.name === "c") {
              while (cells.length < column) cells.push("");
              cells[column] = value;
            } else if (tag.name === "row") summary.picked.set(summary.rows, cells);
          });
          parser.on("error", reject);
          stream.setEncoding("utf8");
          stream.on("data", (chunk: string) => parser.write(chunk));
          stream.on("end", () => {
            parser.close();
            zip.close();
            resolve(summary);
          });
          stream.on("error", reject);
        });
      });
      zip.on("end", () => {
        if (!sheet) reject(new Error("the workbook has no sheet"));
      });
      zip.readEntry();
    });
  });
}

/** `C7` → 2; no reference: the next column. */
function columnIndex(reference: string, next: number): number {
  const letters = /^[A-Z]+/.exec(reference)?.[0];
  if (!letters) return next;
  let index = 0;
  for (const letter of letters) index = index * 26 + (letter.charCodeAt(0) - 64);
  return index - 1;
}

/** CSV rows (no field of the benchmark's data holds a line break; quoted commas are kept whole). */
export async function readCsvSummary(file: string, wanted: (row: number) => boolean): Promise<SheetSummary> {
  const summary: SheetSummary = { rows: -1, picked: new Map() };
  const lines = readline.createInterface({
    input: fs.createReadStream(file, "utf8"),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  for await (const line of lines) {
    summary.rows++;
    if (summary.rows > 0 && wanted(summary.rows)) summary.picked.set(summary.rows, csvCells(line));
  }
  return summary;
}

function csvCells(line: string): string[] {
  const cells: string[] = [];
  let index = 0;
  while (index <= line.length) {
    if (line[index] === '"') {
      let value = "";
      index++;
      for (;;) {
        const quote = line.indexOf('"', index);
        value += line.slice(index, quote);
        index = quote + 1;
        if (line[index] === '"') {
          value += '"';
          index++;
        } else break;
      }
      cells.push(value);
      index++; // the comma
    } else {
      const comma = line.indexOf(",", index);
      const end = comma === -1 ? line.length : comma;
      cells.push(line.slice(index, end));
      index = end + 1;
    }
  }
  return cells;
}
