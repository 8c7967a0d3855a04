import { SaxesParser } from "saxes";
import { readZip } from "./zip.js";

/**
 * The first sheet of an .xlsx as rows of text, read without exceljs: the
 * zip with yauzl, the sheet's XML with a SAX parser (saxes), cells placed by
 * their reference (`C7`) so omitted empty cells stay empty; inline strings,
 * shared strings and numbers.
 */
export async function readXlsxRows(xlsx: Buffer): Promise<string[][]> {
  const entries = await readZip(
    xlsx,
    (name) => name === "xl/sharedStrings.xml" || name === "xl/workbook.xml" || name.startsWith("xl/worksheets/sheet"),
  );
  const shared = entries.has("xl/sharedStrings.xml") ? sharedStrings(entries.get("xl/sharedStrings.xml")!) : [];
  const sheetName = [...entries.keys()].filter((name) => name.startsWith("xl/worksheets/sheet")).sort()[0];
  if (!sheetName) throw new Error("the workbook has no sheet");
  const rows: string[][] = [];
  const parser = new SaxesParser();
  let row: string[] = [];
  let column = 0;
  let type: string | undefined;
  let text: string | null = null;
  let value = "";
  parser.on("opentag", (tag) => {
    if (tag.name === "row") row = [];
    else if (tag.name === "c") {
      column = columnIndex(String(tag.attributes.r ?? ""));
      type = tag.attributes.t as string | undefined;
      value = "";
    } else if (tag.name === "t" || tag.name === "v") text = "";
  });
  parser.on("text", (chunk) => {
    if (text !== null) text += chunk;
  });
  parser.on("closetag", (tag) => {
    if (tag.name === "t" || tag.name === "v") {
      value += text ?? "";
      text = null;
    } else if (tag.name === "c") {
      while (row.length < column) row.push("");
      row[column] = type === "s" ? (shared[Number(value)] ?? "") : value;
    } else if (tag.name === "row") {
      rows.push(row);
    }
  });
  parser.write(entries.get(sheetName)!.toString("utf8")).close();
  return rows;
}

function sharedStrings(xml: Buffer): string[] {
  const strings: string[] = [];
  const parser = new SaxesParser();
  let current: string | null = null;
  let inT = false;
  parser.on("opentag", (tag) => {
    if (tag.name === "si") current = "";
    if (tag.name === "t") inT = true;
  });
  parser.on("text", (chunk) => {
    if (inT && current !== null) current += chunk;
  });
  parser.on("closetag", (tag) => {
    if (tag.name === "t") inT = false;
    if (tag.name === "si") {
      strings.push(current ?? "");
      current = null;
    }
  });
  parser.write(xml.toString("utf8")).close();
  return strings;
}

/** `AB12` → 27 (zero-based column). */
function columnIndex(reference: string): number {
  let index = 0;
  for (const char of reference) {
    if (char < "A" || char > "Z") break;
    index = index * 26 + (char.charCodeAt(0) - 64);
  }
  return index - 1;
}

/** A CSV (RFC 4180, optional BOM) as rows of fields. */
export function readCsvRows(csv: string): string[][] {
  const text = csv.startsWith("\uFEFF") ? csv.slice(1) : csv;
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      row.push(field);
      field = "";
    } else if (char === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else field += char;
  }
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
